import FloorRuntime

/// The browser side of `serve`, deliberately dumb: it reports where the screen is scrolled and draws what
/// the server answers (ViewUpdate). It never decides load-more, sticky headers, heights or actions; those
/// are the server's PageSession. It keeps in the DOM only the rows the last answer listed (one screen
/// above and below), each row element once, keyed by its page-wide index, so a 40,000-row page scrolls as
/// lightly as a short one. Each report says which rows it holds under which tag (HeldRows), and the answer
/// draws only the others: a row it holds comes as its position and tag. A push ("changed", "reload") makes
/// it report again.
///
/// A carousel row (`data-pages`, `data-page`; docs/ABI.md, "Paged rows") gets arrow buttons and dots
/// (`data-page-dot`) drawn over its own, and pages by a swipe or a drag; the server's session turns it
/// (`/page`) and the next view draws it. A tap outlines the item whose frame (the view's `frames`) holds it.
package enum ClientScript {
    /// Where pages load the script from: `/serve.js?v=<hash of the source>`. The browser keeps it (it never
    /// changes at that address), so a page request carries only the page's own markup: 13 KB less each.
    package static let address: String = {
        var hash = ContentHash()
        hash.add(source.utf8)
        return "/serve.js?v=" + String(hash.value, radix: 16)
    }()

    package static let source = #"""
        (() => {
          const api = '/api/sessions/' + FLOOR_SESSION;
          const screen = document.querySelector('.screen'), page = document.querySelector('.page');
          const pinned = document.querySelector('.pinned'), errorBox = document.getElementById('error');
          const eventsList = document.getElementById('events'), diagList = document.getElementById('diagnostics');
          const actionBox = document.getElementById('action');
          const state = document.createElement('div');
          state.className = 'loadstate';
          if (page) page.appendChild(state);
          const drawn = new Map();  // row index -> element
          if (page) for (const el of page.querySelectorAll('.row')) drawn.set(+el.dataset.index, el);
          let version = -1, inflight = false, again = false, ticking = false, epoch = 0, zoom = 1;
          let resync = false;  // an answer left out a row this tab no longer has: the next report holds nothing
          const status = window.floorPreview = { reports: 0, answers: 0, version: -1, load: null, pinned: null,
            width: 0, height: 0, zoom: 1, resizes: 0, pageTurns: 0, taps: 0 };
          let selected = null;  // {index, item}: the tapped item, outlined again when its row is redrawn
          const slides = new Map();  // row index -> 'next' | 'prev': the direction a turned carousel slides in
          let swiped = false;  // a swipe just turned a carousel: the click that ends it is not a tap

          function fromHTML(html) {
            const t = document.createElement('template');
            t.innerHTML = html.trim();
            return t.content.firstElementChild;
          }
          // A page that does not parse: its error over the phone (file:line:column, the line, a caret under
          // the column); the rows drawn so far stay under it, dimmed, and come back when it parses again.
          const phone = document.querySelector('.phone');
          if (phone && errorBox) phone.appendChild(errorBox);
          function showError(text, source) {
            if (!errorBox) return;
            errorBox.textContent = '';
            const what = document.createElement('div');
            what.className = 'what';
            what.textContent = text;
            errorBox.append(what);
            if (source) {
              const pre = document.createElement('pre');
              const n = String(source.line) + ' | ';
              // The caret under the column: wide (CJK) characters take two cells of a monospace font.
              const cells = Array.from(source.text).slice(0, source.caret)
                .reduce((w, c) => w + (/[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/.test(c) ? 2 : 1), 0);
              pre.textContent = n + source.text + '\n' + ' '.repeat(n.length + cells) + '^';
              errorBox.append(pre);
            }
            errorBox.hidden = false;
            if (screen) screen.classList.add('broken');
          }

          async function report() {
            if (inflight) { again = true; return; }
            inflight = true;
            status.reports++;
            const asked = epoch;
            try {
              const r = await fetch(api + '/view', { method: 'POST', headers: { 'content-type': 'application/json' },
                body: viewReport() });
              // A session forgotten while the tab was hidden (its stream closed, so it was not told):
              // loaded again into a fresh one, where it was. A page whose session is unknown from the
              // start says so instead of reloading in a loop.
              if (r.status === 404) {
                if (status.answers > 0) location.reload(); else showError('This preview session ended; reload the page.');
                return;
              }
              const v = await r.json();
              if (asked === epoch) { apply(v); remember(); }  // an answer from before a device switch is stale
            } catch (e) {
              console.warn('floorhost serve: view report failed', e);
            } finally {
              inflight = false;
              if (again) { again = false; report(); }
            }
          }

          // {offset, version, held, pinned}: held names each row drawn by index with its tag, pinned the pinned
          // row shown, so the server sends only what this tab lacks. Past 12 KB (the server takes 16): nothing.
          function viewReport() {
            const offset = screen ? screen.scrollTop : 0, held = {}, p = pinned && pinned.firstElementChild;
            if (resync) { resync = false; return JSON.stringify({ offset, version }); }
            for (const [i, el] of drawn) if (el.dataset.tag) held[i] = el.dataset.tag;
            const report = JSON.stringify({ offset, version, held,
              pinned: p && p.dataset.tag ? { index: +p.dataset.index, tag: p.dataset.tag } : undefined });
            return report.length <= 12288 ? report : JSON.stringify({ offset, version });
          }

          function apply(v) {
            status.answers++;
            if (v.diagnostics) drawDiagnostics(v.diagnostics);
            if (v.error !== undefined) {
              version = status.version = v.version;
              status.error = v.error;
              showError(v.error, v.source);
              return;
            }
            status.error = null;
            if (errorBox && !errorBox.hidden) {
              errorBox.hidden = true;
              if (screen) screen.classList.remove('broken');
            }
            version = status.version = v.version;
            // A pinned row held as a row of the screen: its html, taken before the rows that left are dropped.
            const source = v.pinned && v.pinned.html === undefined ? drawn.get(v.pinned.index) : undefined;
            const shown = pinned.firstElementChild;
            const keepPinned = v.pinned && v.pinned.html === undefined && shown
              && shown.dataset.index === String(v.pinned.index) && shown.dataset.tag === v.pinned.tag;
            const pinnedHTML = !v.pinned ? undefined : v.pinned.html !== undefined ? v.pinned.html
              : source && source.dataset.tag === v.pinned.tag ? source.rowHTML : undefined;
            page.style.height = (v.height + 56) + 'px';
            if (v.scrollTo !== undefined && screen) screen.scrollTop = v.scrollTo;
            const keep = new Set();
            for (const row of v.rows) {
              keep.add(row.index);
              const old = drawn.get(row.index);
              if (row.html === undefined) {  // held, unchanged
                if (old && old.dataset.tag === row.tag) continue;
                keep.delete(row.index);
                resync = again = true;
                continue;
              }
              const el = fromHTML(row.html);
              el.dataset.tag = row.tag;
              el.rowHTML = row.html;
              el.frames = row.frames || [];
              if (row.tappable > 0) el.classList.add('tappable');
              if (el.classList.contains('paged')) addPager(el);
              if (slides.has(row.index)) { el.classList.add('slide-' + slides.get(row.index)); slides.delete(row.index); }
              if (old) old.replaceWith(el); else page.appendChild(el);
              drawn.set(row.index, el);
              if (selected && selected.index === row.index) outline(el, selected.item);
            }
            for (const [i, el] of drawn) if (!keep.has(i)) { el.remove(); drawn.delete(i); }
            // The pinned row: kept (held), or drawn from its html or from the row drawn with that tag.
            status.pinned = v.pinned ? v.pinned.index : null;
            if (!v.pinned) pinned.textContent = '';
            else if (keepPinned) shown.style.top = v.pinned.y + 'px';
            else {
              pinned.textContent = '';
              if (pinnedHTML === undefined) resync = again = true;
              else {
                const el = fromHTML(pinnedHTML);
                el.removeAttribute('id');
                el.dataset.tag = v.pinned.tag;
                el.style.top = v.pinned.y + 'px';
                el.classList.add('pinnedrow');
                pinned.appendChild(el);
              }
            }
            drawLoad(v.load, v.height);
            for (const e of v.events) addEvent(e);
          }

          function drawLoad(load, height) {
            status.load = load.state;
            state.style.top = height + 'px';
            state.className = 'loadstate ' + load.state;
            // The page's last row, the host's load-state footer, says loading / failed (tap to retry) / no more;
            // this element only keeps the state for scripts and tests.
            state.textContent = '';
            // While the retry policy waits, the footer says loading; this says for how long, and offers it now.
            // A failed load says why and offers a retry (the footer row's tap does the same).
            const waiting = load.state === 'loading' && load.retryIn != null;
            if (waiting || load.state === 'failed') {
              const why = document.createElement('div');
              why.textContent = waiting ? '重试中 retrying in ' + Math.ceil(load.retryIn) + ' s: ' + load.reason
                : '加载失败 ' + load.page + ' failed: ' + load.reason;
              const now = document.createElement('button');
              now.className = 'retry';
              now.textContent = waiting ? '现在重试 Retry now' : '重试 Retry';
              now.onclick = async () => { await fetch(api + '/retry', { method: 'POST' }); report(); };
              state.append(why, now);
            }
          }

          function addEvent(e) {
            const li = document.createElement('li');
            li.className = e.kind;
            if (e.kind === 'willDisplay') li.textContent = `willDisplay row ${e.row} (${e.floor} ${e.sectionRow})`;
            else if (e.kind === 'reload') li.textContent = `reload: ${e.floorsChanged} floors changed, ${e.rowsMeasured} rows measured, ${e.rowsKept} kept`;
            else if (e.kind === 'impression') li.textContent = `impression ${e.floor}` + (e.itemId != null ? ` ${e.itemId}` : '')
              + ` row ${e.row} (${Math.round(e.fraction * 100)}% for ${Math.round(e.visibleMs)} ms)`;
            else li.textContent = `loadMore ${e.phase} ${e.page}` + (e.row != null ? ` at row ${e.row}` : '')
              + (e.rowsAdded != null ? `, ${e.rowsAdded} rows` : '') + (e.reason ? `: ${e.reason}` : '');
            eventsList.prepend(li);
            while (eventsList.childElementCount > 300) eventsList.lastElementChild.remove();
          }

          function drawDiagnostics(list) {
            diagList.textContent = '';
            for (const d of list) {
              const li = document.createElement('li');
              li.className = d.level;
              const level = document.createElement('b');
              level.textContent = d.level + ' ';
              li.append(level);
              if (d.path) { const c = document.createElement('code'); c.textContent = d.path; li.append(c, ' '); }
              li.append(d.message);
              diagList.append(li);
            }
            if (!list.length) diagList.innerHTML = '<li class="none">none</li>';
          }

          // The item whose frame holds (x, y), the last one where frames overlap (as the server picks it).
          function itemAt(el, x, y) {
            let hit = null;
            for (const f of el.frames || []) if (x >= f.x && x < f.x + f.width && y >= f.y && y < f.y + f.height) hit = f;
            return hit;
          }
          function outline(el, item) {
            document.querySelectorAll('.itemsel').forEach(o => o.remove());
            const f = (el.frames || []).find(f => f.item === item);
            if (!f) return;
            const o = document.createElement('div');
            o.className = 'itemsel';
            o.dataset.item = String(item);
            Object.assign(o.style, { left: f.x + 'px', top: f.y + 'px', width: f.width + 'px', height: f.height + 'px' });
            el.appendChild(o);
          }

          async function tap(ev) {
            if (swiped) { swiped = false; return; }
            if (ev.target.closest('.pager, .dots')) return;
            const el = ev.target.closest('.row');
            if (!el || !el.classList.contains('tappable')) return;
            // Points in the row: the click's offset undone by the zoom (fit).
            const box = el.getBoundingClientRect();
            const x = (ev.clientX - box.left) / zoom, y = (ev.clientY - box.top) / zoom;
            const hit = itemAt(el, x, y);
            selected = hit ? { index: +el.dataset.index, item: hit.item } : null;
            document.querySelectorAll('.row.selected').forEach(r => r.classList.remove('selected'));
            // The tapped item's frame is outlined; a row without frames is outlined whole.
            if (hit) outline(el, hit.item);
            else { document.querySelectorAll('.itemsel').forEach(o => o.remove()); el.classList.add('selected'); }
            status.taps++;
            const r = await fetch(api + '/tap', { method: 'POST', headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ row: +el.dataset.index, x, y }) });
            const action = await r.json();
            actionBox.textContent = JSON.stringify(action, null, 2);
            if (action.url === 'floorhost://retry') report();  // the footer's tap retried the load
          }

          // A carousel's own controls: arrows at its sides, a dot a page over its last line (where a
          // carousel draws its dots), the current one filled.
          function addPager(el) {
            const pages = +el.dataset.pages, current = +el.dataset.page;
            const prev = document.createElement('button'), next = document.createElement('button');
            prev.className = 'pager prev'; prev.textContent = '‹'; prev.setAttribute('aria-label', 'previous page');
            next.className = 'pager next'; next.textContent = '›'; next.setAttribute('aria-label', 'next page');
            prev.onclick = () => turn(el, (current - 1 + pages) % pages, 'prev');
            next.onclick = () => turn(el, (current + 1) % pages, 'next');
            const dots = document.createElement('div');
            dots.className = 'dots';
            for (let i = 0; i < pages; i++) {
              const dot = document.createElement('button');
              dot.className = i === current ? 'dot on' : 'dot';
              dot.dataset.pageDot = String(i);
              dot.setAttribute('aria-label', 'page ' + (i + 1) + ' of ' + pages);
              dot.onclick = () => turn(el, i, i < current ? 'prev' : 'next');
              dots.appendChild(dot);
            }
            el.append(prev, next, dots);
          }

          async function turn(el, to, direction) {
            if (to === +el.dataset.page) return;
            const index = +el.dataset.index;
            slides.set(index, direction);
            if (selected && selected.index === index) selected = null;
            const r = await fetch(api + '/page', { method: 'POST', headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ row: index, page: to }) });
            if (!r.ok) { slides.delete(index); actionBox.textContent = (await r.json()).error; return; }
            status.pageTurns++;
            report();
          }

          // A swipe (touch) or a drag (mouse) across a carousel turns it: the content follows the pointer,
          // and a move of a sixth of the row's width, more across than down, turns a page.
          let drag = null;
          function dragStart(ev) {
            const el = ev.target.closest('.row.paged');
            if (!el || ev.target.closest('.pager, .dots') || ev.button > 0) return;
            drag = { el, x: ev.clientX, y: ev.clientY, dx: 0 };
          }
          function dragMove(ev) {
            if (!drag) return;
            drag.dx = (ev.clientX - drag.x) / zoom;  // points in the (possibly zoomed) phone
            if (Math.abs(drag.dx) > 4) { drag.el.classList.add('dragging'); drag.el.style.setProperty('--drag', drag.dx + 'px'); }
          }
          function dragEnd(ev) {
            if (!drag) return;
            const { el, x, y } = drag;
            drag = null;
            el.classList.remove('dragging');
            el.style.removeProperty('--drag');
            const dx = (ev.clientX - x) / zoom, dy = (ev.clientY - y) / zoom;
            if (Math.abs(dx) < el.clientWidth / 6 || Math.abs(dx) < Math.abs(dy)) return;
            swiped = true;
            setTimeout(() => { swiped = false; }, 0);  // no click follows a touch swipe: forget it after this turn
            const pages = +el.dataset.pages, current = +el.dataset.page;
            if (dx < 0) turn(el, (current + 1) % pages, 'next'); else turn(el, (current - 1 + pages) % pages, 'prev');
          }

          // The device: any width 280-1,024 points. A switch lays the same session out again (its pages and
          // events kept, the content on screen kept there); the URL holds device, size and scroll offset.
          const phoneEl = document.querySelector('.phone'), deviceMenu = document.getElementById('device');
          const widthField = document.getElementById('width'), sizeLabel = document.getElementById('screensize');
          const zoomLabel = document.getElementById('zoom');
          status.width = widthField ? +widthField.value : (phoneEl ? phoneEl.offsetWidth : 0);
          status.height = screen ? parseFloat(screen.style.height) : 0;
          async function resize(width, height) {
            if (!(width >= 280 && width <= 1024)) {
              if (widthField) { widthField.setCustomValidity('280 to 1,024 points'); widthField.reportValidity(); }
              return;
            }
            if (widthField) widthField.setCustomValidity('');
            epoch++;
            const r = await fetch(api + '/resize', { method: 'POST', headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ width, height, offset: screen.scrollTop }) });
            if (!r.ok) { showError((await r.json()).error || 'the device could not be switched'); return; }
            phoneEl.style.width = width + 'px';
            screen.style.height = height + 'px';
            status.width = width; status.height = height; status.resizes++;
            if (widthField) widthField.value = width;
            if (sizeLabel) sizeLabel.textContent = '× ' + height;
            apply(await r.json());
            fit();
            remember();
          }
          if (deviceMenu) deviceMenu.addEventListener('change', () => {
            const o = deviceMenu.selectedOptions[0];
            if (o.value !== 'custom') resize(+o.dataset.width, +o.dataset.height);
          });
          if (widthField) widthField.addEventListener('change', () => {
            const w = Math.round(+widthField.value);
            const preset = [...deviceMenu.options].find(o => +o.dataset.width === w && +o.dataset.height === status.height);
            deviceMenu.value = preset ? preset.value : 'custom';
            resize(w, status.height);
          });
          // Zoom: the whole phone fits in the window; 100 % when it fits. Taps divide by it.
          function fit() {
            if (!phoneEl) return;
            phoneEl.style.transform = ''; phoneEl.style.marginBottom = ''; phoneEl.style.marginRight = '';
            const w = phoneEl.offsetWidth, h = phoneEl.offsetHeight;
            zoom = Math.min(1, (window.innerHeight - 68) / h, (window.innerWidth - 68) / w);
            if (zoom < 1) {
              phoneEl.style.transformOrigin = 'top left';
              phoneEl.style.transform = 'scale(' + zoom + ')';
              phoneEl.style.marginBottom = -(h * (1 - zoom)) + 'px';
              phoneEl.style.marginRight = -(w * (1 - zoom)) + 'px';
            }
            status.zoom = zoom;
            if (zoomLabel) zoomLabel.textContent = Math.round(zoom * 100) + '%';
          }
          window.addEventListener('resize', fit);
          fit();
          // The URL says what is shown, so a link opens the same view: device (or width and height) and y.
          function remember() {
            if (!screen) return;
            const u = new URL(location.href), q = u.searchParams;
            for (const k of ['device', 'width', 'height', 'y']) q.delete(k);
            if (deviceMenu && deviceMenu.value !== 'custom') q.set('device', deviceMenu.value);
            else { q.set('width', status.width); q.set('height', status.height); }
            const y = Math.round(screen.scrollTop);
            if (y > 0) q.set('y', y);
            history.replaceState(history.state, '', u);
          }

          if (screen) {
            screen.addEventListener('scroll', () => {
              if (ticking) return;
              ticking = true;
              requestAnimationFrame(() => { ticking = false; report(); });
            }, { passive: true });
            screen.addEventListener('click', tap);
            screen.addEventListener('pointerdown', dragStart);
            window.addEventListener('pointermove', dragMove);
            window.addEventListener('pointerup', dragEnd);
            // A carousel's picture is an <img>: the browser's own image drag would take the pointer away.
            screen.addEventListener('dragstart', ev => { if (ev.target.closest('.row.paged')) ev.preventDefault(); });
            window.addEventListener('pointercancel', () => { if (drag) { drag.el.classList.remove('dragging'); drag = null; } });
          }
          // A picture that does not load leaves its placeholder (the name) showing.
          if (page) page.addEventListener('error', e => {
            if (e.target.tagName === 'IMG') e.target.classList.add('broken');
          }, true);
          // The push stream is held only while the tab is shown. A browser opens at most six connections to
          // a host, and a stream holds one for as long as it is open: background tabs, and pages the
          // back/forward cache keeps, holding theirs would leave the next page's requests waiting (a
          // navigation stalled a minute that way). A tab shown again opens its stream and reports at once;
          // its version tells the server what it missed. "expired": the server had to forget this tab's
          // session; the page is loaded again, at the scroll position the address holds, into a fresh one.
          let pushes = null;
          function listen() {
            if (pushes || document.visibilityState === 'hidden') return;
            pushes = new EventSource(api + '/events');
            pushes.onmessage = e => { if (e.data === 'expired') { hush(); location.reload(); } else report(); };
          }
          function hush() { if (pushes) { pushes.close(); pushes = null; } }
          document.addEventListener('visibilitychange', () => {
            if (document.visibilityState === 'hidden') hush(); else { listen(); report(); }
          });
          window.addEventListener('pagehide', hush);
          window.addEventListener('pageshow', e => { if (e.persisted) { listen(); report(); } });
          status.pushing = () => pushes !== null;
          listen();
          report();
        })();
        """#

    package static let stylesheet = """
        .panels{display:flex;flex-direction:column;gap:12px;width:340px;font-size:12px}
        .tools{background:#fff;border-radius:10px;padding:10px 14px;display:flex;gap:12px;align-items:center}
        .tools a{color:#4c7cf3;text-decoration:none}.tools{flex-wrap:wrap;justify-content:space-between}
        .device{order:3;flex-basis:100%;display:flex;gap:8px;align-items:center;color:#5b616e}.device select{flex:1 1 0;width:0;min-width:0}
        .device label{display:inline-flex;gap:4px;align-items:center}
        .device input{width:58px}.device input:invalid{outline:2px solid #e4393c}#zoom{color:#8a8f99;margin-left:auto}
        .panel{background:#fff;border-radius:10px;padding:10px 14px;max-height:260px;overflow:auto}
        .panel h2{font-size:13px;margin:0 0 6px}
        .panel ol,.panel ul{margin:0;padding-left:16px}.panel li{margin:2px 0;word-break:break-word}
        .panel li.loadMore{color:#4c7cf3;font-weight:600}.panel li.error b{color:#c0282b}.panel li.warning b{color:#b7791f}
        #action{margin:0;white-space:pre-wrap;font-size:11px}
        .loadstate{position:absolute;left:0;right:0;height:56px;display:flex;flex-direction:column;align-items:center;justify-content:center;font-size:12px;color:#8a8f99}
        .loadstate.failed{color:#c0282b}.loadstate button{margin-top:4px;border:1px solid #e4393c;color:#e4393c;background:#fff;border-radius:12px;padding:2px 12px}
        .pinned .row{position:absolute}
        .itemsel{position:absolute;outline:2px solid #4c7cf3;outline-offset:-2px;border-radius:8px;pointer-events:none;z-index:1}
        .row.paged{touch-action:pan-y;user-select:none}.row.paged img{-webkit-user-drag:none}
        .row.paged>.t,.row.paged>.tl,.row.paged>.img,.row.paged>.box,.row.paged>.rule,.row.paged>.fill{transition:transform .18s ease-out}
        .row.paged.dragging>.t,.row.paged.dragging>.tl,.row.paged.dragging>.img,.row.paged.dragging>.box,.row.paged.dragging>.fill{transform:translateX(var(--drag));transition:none}
        .row.slide-next>.img,.row.slide-next>span.t:first-of-type,.row.slide-next>span.tl:first-of-type{animation:slide-next .22s ease-out}
        .row.slide-prev>.img,.row.slide-prev>span.t:first-of-type,.row.slide-prev>span.tl:first-of-type{animation:slide-prev .22s ease-out}
        @keyframes slide-next{from{transform:translateX(40%);opacity:.3}to{transform:none;opacity:1}}
        @keyframes slide-prev{from{transform:translateX(-40%);opacity:.3}to{transform:none;opacity:1}}
        .pager{position:absolute;top:calc(50% - 26px);width:28px;height:28px;border:0;border-radius:14px;background:rgba(255,255,255,.82);box-shadow:0 1px 4px rgba(0,0,0,.18);color:#1f2329;font-size:18px;line-height:26px;padding:0;cursor:pointer;z-index:2}
        .pager.prev{left:8px}.pager.next{right:8px}
        .dots{position:absolute;bottom:0;left:50%;transform:translateX(-50%);height:14px;display:flex;gap:6px;align-items:center;padding:0 6px;background:#fff;z-index:2}
        .dot{width:7px;height:7px;border-radius:4px;border:0;padding:0;background:#d5d8de;cursor:pointer}
        .dot.on{width:16px;background:#e4393c}
        .img img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover;border-radius:inherit}
        .img img:not([src]),.img img.broken{display:none}.img.fit img{object-fit:contain}
        .leftout{position:absolute;top:2px;bottom:2px;width:6px;margin-left:-3px;border:1.5px dashed #e4393c;border-radius:3px;z-index:1}
        .leftout.across{top:1px;bottom:auto;left:8px!important;right:8px;width:auto;height:6px;margin:0}
        .leftout.across span{left:auto;right:0;top:-1px;font-size:9px;line-height:12px}
        .leftout span{position:absolute;left:6px;top:2px;max-width:220px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;background:#e4393c;color:#fff;font-size:10px;line-height:14px;padding:0 5px;border-radius:3px}
        .pageerror{background:#fff5f5;border:1px solid #e4393c;color:#c0282b;border-radius:10px;padding:12px 16px;font:13px ui-monospace,monospace;max-width:520px;white-space:pre-wrap;word-break:break-word}
        .phone>.pageerror{position:absolute;left:12px;right:12px;top:92px;z-index:5;box-shadow:0 8px 24px rgba(0,0,0,.18)}
        .pageerror pre{margin:8px 0 0;padding:8px;background:#fff;border-radius:6px;color:#1f2329;font-size:12px;white-space:pre;overflow-x:auto}
        .screen.broken .page,.screen.broken .pinned{opacity:.35;filter:grayscale(1)}
        .loadstate.failed{z-index:1}.loadstate.failed div{padding:0 16px;text-align:center}
        """
}

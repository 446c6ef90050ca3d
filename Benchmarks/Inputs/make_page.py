#!/usr/bin/env python3
"""Generates the benchmark pages, deterministically from a seed (same seed, same bytes).

  make_page.py feed --seed 5 --target-bytes 8000000 --out feed.json
      A home page the shipped plugins render: a Focus carousel, an IconGrid, a Title, then ProductFeed
      floors of 1,000 products each (with sticky headers and margins) until the file reaches the target
      size: about 40,000 product rows for 8 MB. Titles mix CJK and ASCII; prices are text or numbers.
      Titles are 3 to 7 of the 32 WORDS; with `--words 6000`, of 6,000 distinct words (the 32, then made-up
      Latin and CJK ones), so that few titles or words repeat.
  make_page.py chain --pages 1000 --items 20 --out-dir chain-1000
      A chain of `pages` pages (page-0.json -> page-1.json -> ...), each one ProductFeed floor "feed" of
      `items` products that continues the previous page's: load-more extends one floor page after page.
  make_page.py bulk --floors 1000 --rows 1000 --out bulk.json
      A page for the trivial Bulk plugin (Benchmarks/Inputs/trivial_plugin.c): `floors` floors of
      `rows` rows each.
  make_page.py tiles --items 100000 --seed 11 --out tiles.json
      A page for the Tiles collection plugin (Tests/Fixtures/CPlugins/tiles.c): one floor "w" laid out as a
      two-column waterfall of `items` tiles, 80 to 200 points high (drawn from the seed).
"""
import argparse
import json
import random

WORDS = ["无线蓝牙耳机", "Pro", "保温杯", "750ml", "Stainless", "steel", "运动鞋", "Running", "shoes", "机械键盘",
         "RGB", "有机", "牛奶", "Organic", "milk", "4K", "显示器", "Monitor", "27\"", "充电宝", "20000mAh",
         "背包", "Backpack", "旅行", "Travel", "智能手表", "Smart", "watch", "咖啡豆", "Coffee", "beans", "1kg"]


def vocabulary(seed, words):
    """WORDS, then made-up words up to `words` in all (half Latin, half 2 to 4 ideographs from U+4E00-U+9FFF),
    each different: titles drawn from it repeat little, so a cache of laid-out words or titles flatters less."""
    rng = random.Random(seed + 1000)
    vocab, seen = list(WORDS), set(WORDS)
    while len(vocab) < words:
        if len(vocab) % 2:
            word = "".join(chr(rng.randint(0x61, 0x7A)) for _ in range(rng.randint(3, 10)))
        else:
            word = "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            vocab.append(word)
    return vocab


def product(rng, n, vocab=WORDS):
    title = " ".join(rng.choice(vocab) for _ in range(rng.randint(3, 7)))
    price = rng.choice([f"¥{rng.randint(1, 2999)}.{rng.randint(0, 99):02d}", round(rng.uniform(1, 3000), 2)])
    item = {"id": f"p{n}", "title": title, "price": price, "img": f"https://img.example.com/p/{n}.jpg",
            "jump": {"url": f"app://product/{n}", "eventId": "feed_click"}}
    return item


def feed_page(seed, target_bytes, per_floor, words=len(WORDS)):
    rng = random.Random(seed)
    vocab = vocabulary(seed, words)
    floors = [
        {"type": "Focus", "id": "focus", "margin": {"bottom": 12},
         "items": [{"id": f"b{i}", "img": f"https://img.example.com/banner/{i}.jpg", "title": f"活动 Campaign {i}",
                    "jump": {"url": f"app://activity/{i}", "eventId": f"focus_{i}"}} for i in range(5)]},
        {"type": "IconGrid", "id": "channels", "columns": 5,
         "items": [{"id": f"i{i}", "img": f"https://img.example.com/icon/{i}.png", "title": f"频道{i}",
                    "jump": {"url": f"app://channel/{i}"}} for i in range(10)]},
        {"type": "Title", "id": "feed-title", "title": "猜你喜欢 For you", "subtitle": "每日更新"},
    ]
    size = len(json.dumps({"floors": floors, "next": None}, ensure_ascii=False, separators=(",", ":")).encode())
    n = 0
    while size < target_bytes:
        items = []
        for _ in range(per_floor):
            item = product(rng, n, vocab)
            n += 1
            items.append(item)
            size += len(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode()) + 1
            if size >= target_bytes:
                break
        floors.append({"type": "ProductFeed", "id": f"feed{len(floors)}",
                       "header": {"title": f"精选 Picks {len(floors)}", "sticky": True},
                       "margin": {"top": 8, "bottom": 8}, "items": items})
    return {"floors": floors, "next": None}


def write_chain(seed, pages, items, out_dir):
    import os
    rng = random.Random(seed)
    os.makedirs(out_dir, exist_ok=True)
    for k in range(pages):
        floor = {"type": "ProductFeed", "id": "feed", "items": [product(rng, k * items + i) for i in range(items)]}
        if k == 0:
            floor["header"] = {"title": "猜你喜欢 For you", "sticky": True}
            floor["margin"] = {"top": 8, "bottom": 8}
        page = {"floors": [floor], "next": f"page-{k + 1}.json" if k + 1 < pages else None}
        with open(os.path.join(out_dir, f"page-{k}.json"), "w", encoding="utf-8") as f:
            json.dump(page, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")


def bulk_page(floors, rows, first_id):
    return {"floors": [{"type": "Bulk", "id": f"bulk{first_id + i}", "rows": rows} for i in range(floors)], "next": None}


def tiles_page(seed, items):
    rng = random.Random(seed)
    heights = [rng.randint(80, 200) for _ in range(items)]
    return {"floors": [{"type": "Tiles", "id": "w", "layout": "waterfall", "columns": 2, "heights": heights}],
            "next": None}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="kind", required=True)
    feed = sub.add_parser("feed")
    feed.add_argument("--seed", type=int, default=5)
    feed.add_argument("--target-bytes", type=int, default=8_000_000)
    feed.add_argument("--per-floor", type=int, default=1000)
    feed.add_argument("--words", type=int, default=len(WORDS),
                      help="distinct words the titles are drawn from (default: the 32 of WORDS)")
    feed.add_argument("--out", required=True)
    bulk = sub.add_parser("bulk")
    bulk.add_argument("--floors", type=int, default=1000)
    bulk.add_argument("--rows", type=int, default=1000)
    bulk.add_argument("--first-id", type=int, default=0, help="floor ids are bulk<first-id>, bulk<first-id + 1>...")
    bulk.add_argument("--out", required=True)
    chain = sub.add_parser("chain")
    chain.add_argument("--seed", type=int, default=7)
    chain.add_argument("--pages", type=int, default=1000)
    chain.add_argument("--items", type=int, default=20)
    chain.add_argument("--out-dir", required=True)
    tiles = sub.add_parser("tiles")
    tiles.add_argument("--seed", type=int, default=11)
    tiles.add_argument("--items", type=int, default=100000)
    tiles.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.kind == "chain":
        write_chain(args.seed, args.pages, args.items, args.out_dir)
        return
    if args.kind == "tiles":
        page = tiles_page(args.seed, args.items)
    elif args.kind == "feed":
        page = feed_page(args.seed, args.target_bytes, args.per_floor, args.words)
    else:
        page = bulk_page(args.floors, args.rows, args.first_id)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(page, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()

/// `floorhost serve --help`: the text, kept beside what it describes (the CLI only wires it in).
package enum ServeHelp {
    package static let abstract = "Preview the pages under a folder in a browser, live."

    package static let discussion = """
        Serves http://HOST:PORT/: an index of the pages under ROOT, each page in a phone frame \
        (/page/<path>, any device 280 to 1,024 points wide) that loads next pages as you scroll, and \
        /layout/<path>, what `floorhost <path> --format json` prints. Saving a page file updates \
        every open tab. Plugins and sessions live in a worker process: adding or rebuilding a plugin \
        library takes effect without a restart, and a plugin that crashes or hangs on a floor leaves \
        that floor out (--no-plugin-isolation: all in this process; a plugin change then needs a \
        restart). Pages are read only from ROOT (after symlinks, regular files, --max-page-bytes).

        Only requests for this preview's own names are answered (localhost, 127.0.0.1, [::1], the \
        --host address, --allow-host names); a request that opens or drives a session from another \
        web site (its Origin or Sec-Fetch-Site) is refused with 403.

        Example:
          floorhost serve --plugins Plugins/ Examples/
        """

    package static let host =
        "The address to listen on. The preview is for this machine: anything but loopback shows every page under ROOT to the network (a warning says so)."

    package static let allowHost =
        "Also answer requests for NAME (a reverse proxy's host name, e.g. preview.example.com); repeatable."

    package static let retry =
        "Retry a failed next-page load up to N times with backoff (as render's --retry); the page's retry button still works after the last."

    package static let accessLog =
        "Write one line per request to FILE (- for stdout): time, method, path, status and milliseconds."
}

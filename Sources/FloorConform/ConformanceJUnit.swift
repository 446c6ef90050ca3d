import HostContract

/// The CI form of a conformance report (`floorhost conform --format junit`): JUnit XML, which Jenkins,
/// GitLab, GitHub Actions reporters and most CI systems read. One `testsuite` per plugin file, one
/// `testcase` per check (classname `conform.<plugin id>`, name the check's id); a failed check carries a
/// `failure` whose message is the reason and whose text adds the details (a diff, a reproduce command),
/// a skipped one a `skipped` with the reason, and a passed one with details (a fuzz run's figures) a
/// `system-out` with them.
///
///     <testsuites name="floorhost conform" tests="17" failures="1" skipped="2">
///       <testsuite name="libBadge.so" tests="17" failures="1" skipped="2" file="Plugins/libBadge.so">
///         <testcase classname="conform.com.floorkit.test.badge" name="heights" file="Plugins/libBadge.so">
///           <failure message="heightForBadgeRow:width: returned nan ..." type="fail">...</failure>
///         </testcase>
///
/// Text is escaped for XML after control characters are escaped as everywhere floorhost prints what a
/// plugin supplied (\uXXXX); line breaks in a failure's text stay.
public enum ConformanceJUnit {
    public static func render(_ report: ConformanceReport) -> String {
        func count(_ plugin: ConformanceReport.Plugin, _ verdict: ConformanceReport.Verdict) -> Int {
            plugin.results.filter { $0.verdict == verdict }.count
        }
        let tests = report.plugins.map(\.results.count).reduce(0, +)
        let failures = report.plugins.map { count($0, .fail) }.reduce(0, +)
        let skipped = report.plugins.map { count($0, .skip) }.reduce(0, +)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="floorhost conform" tests="\#(tests)" failures="\#(failures)" skipped="\#(skipped)">"#,
        ]
        for plugin in report.plugins {
            let file = escaped(plugin.file)
            let name = escaped(plugin.file.split(separator: "/").last.map(String.init) ?? plugin.file)
            lines.append(
                #"  <testsuite name="\#(name)" tests="\#(plugin.results.count)" failures="\#(count(plugin, .fail))" skipped="\#(count(plugin, .skip))" file="\#(file)">"#
            )
            var properties = [("file", plugin.file)]
            if let id = plugin.id { properties.append(("id", id)) }
            if let version = plugin.version { properties.append(("version", version)) }
            if let pluginName = plugin.name { properties.append(("name", pluginName)) }
            lines.append("    <properties>")
            for (key, value) in properties {
                lines.append(#"      <property name="\#(key)" value="\#(escaped(value))"/>"#)
            }
            lines.append("    </properties>")
            let classname = escaped("conform." + (plugin.id ?? name))
            for result in plugin.results {
                let open = #"    <testcase classname="\#(classname)" name="\#(escaped(result.check))" file="\#(file)""#
                switch result.verdict {
                case .pass:
                    // What a passing check adds (snapshots recorded, a fuzz run's figures) goes to the CI log.
                    if let details = result.details {
                        lines.append(open + ">")
                        lines.append(
                            "      <system-out>\(escaped(details.joined(separator: "\n"), keepingLineBreaks: true))</system-out>"
                        )
                        lines.append("    </testcase>")
                    } else {
                        lines.append(open + "/>")
                    }
                case .fail:
                    let reason = result.reason ?? "failed"
                    let body = ([reason] + (result.details ?? [])).joined(separator: "\n")
                    lines.append(open + ">")
                    lines.append(
                        #"      <failure message="\#(escaped(reason))" type="fail">\#(escaped(body, keepingLineBreaks: true))</failure>"#
                    )
                    lines.append("    </testcase>")
                case .skip:
                    lines.append(open + ">")
                    lines.append(#"      <skipped message="\#(escaped(result.reason ?? "skipped"))"/>"#)
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` for an XML attribute or element: markup characters as entities, and what XML 1.0 cannot
    /// carry as \uXXXX. In attributes, line breaks are entities too, so that they survive normalisation.
    package static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var out = ""
        // Control characters first, as in the table and json (DEL, C1 and bidi controls too), then XML.
        for scalar in ControlCharacters.escaped(text, keepingLineBreaks: true).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n" where keepingLineBreaks: out += "\n"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16, uppercase: true)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

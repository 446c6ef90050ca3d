import ArgumentParser
import FloorHost
import Foundation

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lay out and draw a page (the default command).",
        discussion: "Example: floorhost --plugins Plugins/ Examples/home.json --format json")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "Folder of floor plugin libraries (*.so), searched up to 4 folders deep.")
    var plugins = "Plugins"

    @Argument(help: "The page JSON file.")
    var page: String

    @Option(help: "Output: text (a terminal preview) or json (layout, diagnostics and events).")
    var format: Format = .text

    @Option(help: "Terminal columns for text (default 75, which shows 375 points); layout points for json (default 375).")
    var width: Double?

    @Option(help: "How height and cell selectors are called: typed (direct) or ffi (libffi).")
    var dispatch: DispatchMode = .typed

    func validate() throws {
        if let width, !(width >= 1 && width <= 100_000) { throw ValidationError("--width must be between 1 and 100000") }
    }

    func run() throws {
        let host: FloorHost
        do {
            host = try FloorHost(pluginFolder: plugins)
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
        let columns = Int(width ?? Double(TextRenderer.defaultColumns))
        let layoutWidth = format == .text ? TextRenderer.layoutWidth(columns: columns) : (width ?? 375)
        let adapter: Adapter
        do {
            adapter = try host.layout(page: page, width: layoutWidth, dispatch: dispatch)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let diagnostics = host.diagnostics(for: adapter)
        switch format {
        case .text:
            for d in diagnostics { printError("\(d.level.rawValue): \(d.message)") }
            FileHandle.standardOutput.write(Data(TextRenderer.render(adapter, columns: columns).utf8))
        case .json:
            FileHandle.standardOutput.write(Data(JSONRenderer.render(adapter, plugins: host.plugins, diagnostics: diagnostics)))
        }
    }
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

extension DispatchMode: ExpressibleByArgument {}

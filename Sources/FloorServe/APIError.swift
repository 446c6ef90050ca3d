import FloorCore
import FloorSession
import Hummingbird

/// A refused request: a 4xx status and one line of JSON, `{"error":"..."}`. The message never quotes what
/// was asked for (a refused path is "no such page", whatever it was).
package struct APIError: Error, Sendable {
    package let status: HTTPResponse.Status
    package let message: String

    package static let noSuchPage = APIError(status: .notFound, message: "no such page")
    package static let noSuchSession = APIError(
        status: .notFound, message: "no such session (the server forgot it; reload the page)")

    package var response: Response {
        var out = JSONWriter(capacity: 64 + message.utf8.count)
        out.raw("{")
        out.key("error")
        out.string(message)
        out.raw("}\n")
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: out.bytes)))
    }
}

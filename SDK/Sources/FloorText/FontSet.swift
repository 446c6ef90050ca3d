/// The pinned font set every text measurement uses (docs/ABI.md, "Text layout"): the same files on every
/// machine give the same layout. Fonts.lock at the repository's root lists the same files with their
/// SHA-256; `Scripts/setup` installs the packages and checks the hashes, and FontSetTests checks that this
/// list and Fonts.lock agree. The preview serves exactly these files (FloorServe's font route).
public enum FontSet {
    /// A font file of the set.
    public struct File: Sendable, Equatable {
        /// What the engine uses it for.
        public enum Role: String, Sendable, CaseIterable {
            case sans, sansBold, cjk, cjkBold, emoji
        }
        public let role: Role
        public let path: String
        /// The face inside a collection (.ttc); 0 for a single font. CJK face 0 is Noto Sans CJK JP, whose
        /// advances are those of every CJK face of the collection.
        public let faceIndex: Int
        public let package: String
        public let version: String
        public let sha256: String

        /// The file's name, which the preview's font route serves it under.
        public var fileName: String { String(path.split(separator: "/").last ?? "") }
    }

    /// The set's name, as the json output's `stats` gives it.
    public static let name = "noto-debian12"

    /// Per character, the first file of the style's weight that has the character draws it: Noto Sans,
    /// then Noto Sans CJK, then Noto Color Emoji (emoji presentation goes to the emoji font first).
    public static let files: [File] = [
        File(
            role: .sans, path: "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", faceIndex: 0,
            package: "fonts-noto-core", version: "20201225-1",
            sha256: "89c3c497f618fdaa0b2d1e98fef93582f28c71debd2c4a8cdf41f190ced2909d"),
        File(
            role: .sansBold, path: "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf", faceIndex: 0,
            package: "fonts-noto-core", version: "20201225-1",
            sha256: "e83493c945848ecd4a9ad0f6d19164541a0d3e23a9c952304a00a46e00272ac5"),
        File(
            role: .cjk, path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", faceIndex: 0,
            package: "fonts-noto-cjk", version: "1:20220127+repack1-1",
            sha256: "b76b0433203017ca80401b2ee0dd69350349871c4b19d504c34dbdd80541690a"),
        File(
            role: .cjkBold, path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", faceIndex: 0,
            package: "fonts-noto-cjk", version: "1:20220127+repack1-1",
            sha256: "faa5f3656a78b2e2d450d27fe8382c778bc2b6bb5ea29c986664a6a435056ceb"),
        File(
            role: .emoji, path: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", faceIndex: 0,
            package: "fonts-noto-color-emoji", version: "2.042-0+deb12u1",
            sha256: "e5899ed38b8ed83e08bd3ac5de09791e9d19d288333a796de1d35ad17396f1ec"),
    ]

    public static func file(_ role: File.Role) -> File { files.first { $0.role == role }! }
}

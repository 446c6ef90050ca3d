import ArgumentParser

/// An option whose value is one of an enum's cases, named by its raw value (--format, --dispatch, --color).
/// ArgumentParser's defaults list such a type's values through a key path and its values' descriptions
/// through string interpolation, again for every option group built at each parse: 1.6 M instructions of
/// the empty page's start for render's three (BENCHMARKS.md, "A process's start, cheaper"). These give the
/// same lists (the raw values, and no description of them) directly, so help and errors read as before.
package protocol CaseArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension CaseArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }

    /// ArgumentParser's default keeps a value's description only when it differs from its raw value: never.
    public static var allValueDescriptions: [String: String] { [:] }
}

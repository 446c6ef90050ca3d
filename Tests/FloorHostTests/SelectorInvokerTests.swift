import CFloorABI
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// The invoker the reentrancy test's selector performs from inside its own call (a C function cannot
/// capture it). Only that test uses it.
nonisolated(unsafe) private var reentrantInvoker: SelectorInvoker?
/// How often the refusal test's selector ran. Only that test uses it.
nonisolated(unsafe) private var refusalTestCalls = 0

/// The generic invocation layer: any registered selector performed by its declared signature (libffi),
/// and signatures parsed and refused exactly.
struct SelectorInvokerTests {
    @Test func signaturesParseAndRefuse() {
        #expect(Signature("d(ppQd)")?.arguments == [.pointer, .pointer, .uint64, .double])
        #expect(Signature("v()")?.result == .void)
        #expect(Signature("v()")?.arguments == [])
        for bad in ["", "d", "d(", "dppQd)", "x(p)", "d(pv)", "d(p)x", "(p)"] {
            #expect(Signature(bad) == nil, "\(bad)")
        }
        #expect(Signature(FLOOR_SIG_HEIGHT)?.description == FLOOR_SIG_HEIGHT)
    }

    private func selector(_ signature: String, _ function: floor_fn_t) -> Selector {
        Selector(name: "test", signature: Signature(signature)!, function: function)
    }

    @Test func performsEveryArgumentAndResultType() throws {
        let mix: @convention(c) (Int32, UInt32, Int64, UInt64, Double) -> Double = { a, b, c, d, e in
            Double(a) + Double(b) * 10 + Double(c) * 100 + Double(d) * 1000 + e
        }
        let result = try selector("d(iuqQd)", unsafeBitCast(mix, to: floor_fn_t.self)).invoker
            .perform(.int(-1), .uint(2), .int(3), .uint(4), .double(0.25))
        #expect(result == .double(-1 + 20 + 300 + 4000 + 0.25))

        let signed: @convention(c) (Bool, Int64) -> Int64 = { negative, n in negative ? -n : n }
        #expect(
            try selector("q(bq)", unsafeBitCast(signed, to: floor_fn_t.self)).invoker.perform(.bool(true), .int(5))
                == .int(-5))
        #expect(
            try selector("q(bq)", unsafeBitCast(signed, to: floor_fn_t.self)).invoker.perform(.bool(false), .int(5))
                == .int(5))

        let negate: @convention(c) (Int32) -> Int32 = { -$0 }
        #expect(try selector("i(i)", unsafeBitCast(negate, to: floor_fn_t.self)).invoker.perform(.int(41)) == .int(-41))

        let isOdd: @convention(c) (UInt64) -> Bool = { $0 % 2 == 1 }
        #expect(
            try selector("b(Q)", unsafeBitCast(isOdd, to: floor_fn_t.self)).invoker.perform(.uint(7)) == .bool(true))
        #expect(
            try selector("b(Q)", unsafeBitCast(isOdd, to: floor_fn_t.self)).invoker.perform(.uint(8)) == .bool(false))

        let big: @convention(c) () -> UInt32 = { 0xFFFF_FFF0 }
        #expect(try selector("u()", unsafeBitCast(big, to: floor_fn_t.self)).invoker.perform() == .uint(0xFFFF_FFF0))

        let huge: @convention(c) (UInt64) -> UInt64 = { $0 | 1 << 63 }
        #expect(
            try selector("Q(Q)", unsafeBitCast(huge, to: floor_fn_t.self)).invoker.perform(.uint(3))
                == .uint(1 << 63 | 3))

        let echo: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { $0.map { $0 + 8 } }
        let base = UnsafeMutableRawPointer(bitPattern: 0x1000)
        #expect(
            try selector("p(p)", unsafeBitCast(echo, to: floor_fn_t.self)).invoker.perform(.pointer(base))
                == .pointer(UnsafeMutableRawPointer(bitPattern: 0x1008)))

        let nothing: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in }
        #expect(
            try selector("v(pp)", unsafeBitCast(nothing, to: floor_fn_t.self)).invoker.perform(
                .pointer(base), .pointer(nil)) == .void)
    }

    /// An invoker keeps its argument slots from call to call: every call must still see its own arguments,
    /// for every argument count and result type, with invokers of the same signature interleaved.
    @Test func manyCallsEachGetTheirOwnArgumentsAndResult() throws {
        func pointer(_ i: Int) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 0x1000 + 16 * i) }
        let constant: @convention(c) () -> Int64 = { -7 }
        let triple: @convention(c) (Int64) -> Int64 = { $0 &* 3 }
        let half: @convention(c) (Int64) -> Int64 = { $0 / 2 }
        let difference: @convention(c) (Double, Double) -> Double = { $0 - $1 }
        let sum: @convention(c) (Int32, UInt32, Int64) -> Int32 = {
            Int32(truncatingIfNeeded: Int64($0) + Int64($1) - $2)
        }
        let height: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, Double) -> Double = {
            context, model, row, width in
            Double(UInt(bitPattern: context) &- UInt(bitPattern: model)) + Double(row) + width
        }
        let tappable: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64) -> UInt64 = {
            context, model, row in
            UInt64(UInt(bitPattern: context) ^ UInt(bitPattern: model)) &+ row
        }
        let action:
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, UInt64, UnsafeMutableRawPointer?
            ) -> Bool = { context, model, row, item, sink in
                (UInt(bitPattern: context) &+ UInt(bitPattern: model) &+ UInt(row) &+ UInt(item)
                    &+ UInt(bitPattern: sink)) % 3 == 0
            }
        let offset: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> UnsafeMutableRawPointer? = { base, by in
            base.map { $0 + Int(by) }
        }

        let constantInvoker = selector("q()", unsafeBitCast(constant, to: floor_fn_t.self)).invoker
        let tripleInvoker = selector("q(q)", unsafeBitCast(triple, to: floor_fn_t.self)).invoker
        let halfInvoker = selector("q(q)", unsafeBitCast(half, to: floor_fn_t.self)).invoker
        let differenceInvoker = selector("d(dd)", unsafeBitCast(difference, to: floor_fn_t.self)).invoker
        let sumInvoker = selector("i(iuq)", unsafeBitCast(sum, to: floor_fn_t.self)).invoker
        let heightInvoker = selector(FLOOR_SIG_HEIGHT, unsafeBitCast(height, to: floor_fn_t.self)).invoker
        let tappableInvoker = selector(FLOOR_SIG_TAPPABLE, unsafeBitCast(tappable, to: floor_fn_t.self)).invoker
        let actionInvoker = selector(FLOOR_SIG_ACTION, unsafeBitCast(action, to: floor_fn_t.self)).invoker
        let offsetInvoker = selector("p(pu)", unsafeBitCast(offset, to: floor_fn_t.self)).invoker

        var mismatches: [String] = []
        func check(_ got: SelectorValue, _ expected: SelectorValue, _ what: String) {
            if got != expected { mismatches.append("\(what): \(got), expected \(expected)") }
        }
        for i in 0..<2_000 {
            let n = Int64(i) * 7919 - 5_000_000
            check(try constantInvoker.perform(), .int(-7), "q() #\(i)")
            check(try tripleInvoker.perform(.int(n)), .int(triple(n)), "triple #\(i)")
            check(try halfInvoker.perform(.int(n + 1)), .int(half(n + 1)), "half #\(i)")
            check(
                try differenceInvoker.perform(.double(Double(i) * 0.5), .double(-Double(n))),
                .double(difference(Double(i) * 0.5, -Double(n))), "d(dd) #\(i)")
            check(
                try sumInvoker.perform(.int(-n), .uint(UInt64(i) * 3), .int(n / 3)),
                .int(Int64(sum(Int32(truncatingIfNeeded: -n), UInt32(i * 3), n / 3))), "i(iuq) #\(i)")
            check(
                try heightInvoker.perform(
                    .pointer(pointer(i)), .pointer(pointer(i / 2)), .uint(UInt64(i)), .double(375 + Double(i))),
                .double(height(pointer(i), pointer(i / 2), UInt64(i), 375 + Double(i))), "height #\(i)")
            check(
                try tappableInvoker.perform(.pointer(pointer(i)), .pointer(pointer(i + 1)), .uint(UInt64(i))),
                .uint(tappable(pointer(i), pointer(i + 1), UInt64(i))), "tappable #\(i)")
            check(
                try actionInvoker.perform(
                    .pointer(pointer(i)), .pointer(nil), .uint(UInt64(i)), .uint(UInt64(i % 5)), .pointer(pointer(3))),
                .bool(action(pointer(i), nil, UInt64(i), UInt64(i % 5), pointer(3))), "action #\(i)")
            check(
                try offsetInvoker.perform(.pointer(pointer(i)), .uint(UInt64(i % 64))),
                .pointer(offset(pointer(i), UInt32(i % 64))), "p(pu) #\(i)")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// A selector may call back into the host, which may perform the same invoker again before the outer
    /// call returns: the slots are shared, so the outer call must not depend on them once it has called.
    @Test func aSelectorMayPerformItsOwnInvokerAgainFromInsideTheCall() throws {
        let sum: @convention(c) (Int64) -> Int64 = { n in
            guard n > 0, case .int(let rest)? = try? reentrantInvoker?.perform(.int(n - 1)) else { return 0 }
            return n + rest
        }
        let invoker = selector("q(q)", unsafeBitCast(sum, to: floor_fn_t.self)).invoker
        reentrantInvoker = invoker
        defer { reentrantInvoker = nil }
        #expect(try invoker.perform(.int(100)) == .int(5050))
    }

    @Test func refusesArgumentsThatDoNotMatchTheSignature() {
        let f: @convention(c) (Double) -> Double = { $0 }
        let invoker = selector("d(d)", unsafeBitCast(f, to: floor_fn_t.self)).invoker
        #expect(throws: SelectorInvoker.Failure.argumentCount(expected: 1, got: 0)) { try invoker.perform() }
        #expect(throws: SelectorInvoker.Failure.argumentType(index: 0, expected: "d")) { try invoker.perform(.int(1)) }
    }

    /// Every argument count is checked, and every position's type, before the function is called; a refused
    /// call leaves the next one unaffected.
    @Test func refusesEveryWrongCountAndTypeWithoutCalling() throws {
        let action:
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, UInt64, UnsafeMutableRawPointer?
            ) -> Bool = { _, _, row, item, _ in
                refusalTestCalls += 1
                return row == item
            }
        let invoker = selector(FLOOR_SIG_ACTION, unsafeBitCast(action, to: floor_fn_t.self)).invoker
        refusalTestCalls = 0
        let p = SelectorValue.pointer(nil)
        let q = SelectorValue.uint(2)
        #expect(throws: SelectorInvoker.Failure.argumentCount(expected: 5, got: 0)) { try invoker.perform() }
        #expect(throws: SelectorInvoker.Failure.argumentCount(expected: 5, got: 1)) { try invoker.perform(p) }
        #expect(throws: SelectorInvoker.Failure.argumentCount(expected: 5, got: 2)) { try invoker.perform(p, p) }
        #expect(throws: SelectorInvoker.Failure.argumentCount(expected: 5, got: 3)) { try invoker.perform(p, p, q) }
        #expect(throws: SelectorInvoker.Failure.argumentCount(expected: 5, got: 4)) { try invoker.perform(p, p, q, q) }
        #expect(throws: SelectorInvoker.Failure.argumentType(index: 0, expected: "p")) {
            try invoker.perform(q, p, q, q, p)
        }
        #expect(throws: SelectorInvoker.Failure.argumentType(index: 1, expected: "p")) {
            try invoker.perform(p, .double(1), q, q, p)
        }
        #expect(throws: SelectorInvoker.Failure.argumentType(index: 2, expected: "Q")) {
            try invoker.perform(p, p, .int(2), q, p)
        }
        #expect(throws: SelectorInvoker.Failure.argumentType(index: 3, expected: "Q")) {
            try invoker.perform(p, p, q, .bool(true), p)
        }
        #expect(throws: SelectorInvoker.Failure.argumentType(index: 4, expected: "p")) {
            try invoker.perform(p, p, q, .uint(3), q)
        }
        #expect(refusalTestCalls == 0)
        // The last refused call stored item 3 before it failed; this one's item is 2 again.
        #expect(try invoker.perform(p, p, q, q, p) == .bool(true))
        #expect(refusalTestCalls == 1)

        let none: @convention(c) () -> Void = {}
        let empty = selector("v()", none).invoker
        #expect(throws: SelectorInvoker.Failure.argumentCount(expected: 0, got: 5)) { try empty.perform(p, p, q, q, p) }
    }

    @Test func registrationChecksTheSignatureAgainstTheSlot() {
        let f: @convention(c) () -> Void = {}
        let fn: floor_fn_t = f
        // Registered strings live as long as the process (the ABI's rule), so the test leaks them too.
        let name = UnsafePointer(strdup("heightForX"))
        func check(_ signature: String?) -> String? {
            let raw = floor_selector_t(name: name, signature: signature.map { UnsafePointer(strdup($0)) }, fn: fn)
            if case .failure(let error) = Selector.check(raw, slot: "height calculator", expected: FLOOR_SIG_HEIGHT) {
                return error.message
            }
            return nil
        }
        #expect(check(FLOOR_SIG_HEIGHT) == nil)
        #expect(
            check("f(ppQd)") == "height calculator 'heightForX' has a malformed signature 'f(ppQd)'; expected d(ppQd)")
        #expect(check("d(ppQ)") == "height calculator 'heightForX' has signature d(ppQ); expected d(ppQd)")
        #expect(check(nil) == "height calculator 'heightForX' has no signature; expected d(ppQd)")
        let none = floor_selector_t(name: nil, signature: nil, fn: nil)
        if case .failure(let error) = Selector.check(none, slot: "height calculator", expected: FLOOR_SIG_HEIGHT) {
            #expect(error.message == "height calculator has no function")
        } else {
            Issue.record("a selector without a function was accepted")
        }
    }
}

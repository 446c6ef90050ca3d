import CFloorABI
import Foundation
import Testing
@testable import FloorHost

/// The generic invocation layer: any registered selector performed by its declared signature (libffi),
/// and signatures parsed and refused exactly.
struct SelectorInvokerTests {
    @Test func signaturesParseAndRefuse() {
        #expect(Signature("d(ppQd)")?.arguments == [.pointer, .pointer, .uint64, .double])
        #expect(Signature("v()")?.result == .void)
        #expect(Signature("v()")?.arguments == [])
        for bad in ["", "d", "d(", "dppQd)", "x(p)", "d(pv)", "d(p)x", "(p)"] { #expect(Signature(bad) == nil, "\(bad)") }
        #expect(Signature(FLOOR_SIG_HEIGHT)?.description == FLOOR_SIG_HEIGHT)
    }

    private func selector(_ signature: String, _ function: floor_fn_t) -> Selector {
        Selector(name: "test", signature: Signature(signature)!, function: function)
    }

    @Test func performsEveryArgumentAndResultType() throws {
        let mix: @convention(c) (Int32, UInt32, Int64, UInt64, Double, Bool) -> Double = { a, b, c, d, e, f in
            Double(a) + Double(b) * 10 + Double(c) * 100 + Double(d) * 1000 + e + (f ? 0.5 : 0)
        }
        let result = try selector("d(iuqQdb)", unsafeBitCast(mix, to: floor_fn_t.self)).invoker
            .perform([.int(-1), .uint(2), .int(3), .uint(4), .double(0.25), .bool(true)])
        #expect(result == .double(-1 + 20 + 300 + 4000 + 0.25 + 0.5))

        let negate: @convention(c) (Int32) -> Int32 = { -$0 }
        #expect(try selector("i(i)", unsafeBitCast(negate, to: floor_fn_t.self)).invoker.perform([.int(41)]) == .int(-41))

        let isOdd: @convention(c) (UInt64) -> Bool = { $0 % 2 == 1 }
        #expect(try selector("b(Q)", unsafeBitCast(isOdd, to: floor_fn_t.self)).invoker.perform([.uint(7)]) == .bool(true))
        #expect(try selector("b(Q)", unsafeBitCast(isOdd, to: floor_fn_t.self)).invoker.perform([.uint(8)]) == .bool(false))

        let big: @convention(c) () -> UInt32 = { 0xFFFF_FFF0 }
        #expect(try selector("u()", unsafeBitCast(big, to: floor_fn_t.self)).invoker.perform([]) == .uint(0xFFFF_FFF0))

        let echo: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { $0.map { $0 + 8 } }
        let base = UnsafeMutableRawPointer(bitPattern: 0x1000)
        #expect(try selector("p(p)", unsafeBitCast(echo, to: floor_fn_t.self)).invoker.perform([.pointer(base)]) == .pointer(UnsafeMutableRawPointer(bitPattern: 0x1008)))
    }

    @Test func refusesArgumentsThatDoNotMatchTheSignature() {
        let f: @convention(c) (Double) -> Double = { $0 }
        let invoker = selector("d(d)", unsafeBitCast(f, to: floor_fn_t.self)).invoker
        #expect(throws: SelectorInvoker.Failure.argumentCount(expected: 1, got: 0)) { try invoker.perform([]) }
        #expect(throws: SelectorInvoker.Failure.argumentType(index: 0, expected: "d")) { try invoker.perform([.int(1)]) }
    }

    @Test func registrationChecksTheSignatureAgainstTheSlot() {
        let f: @convention(c) () -> Void = {}
        let fn = unsafeBitCast(f, to: floor_fn_t.self)
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
        #expect(check("f(ppQd)") == "height calculator 'heightForX' has a malformed signature 'f(ppQd)'; expected d(ppQd)")
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

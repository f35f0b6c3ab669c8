@testable import RiffleApp
import RiffleInteraction
import Testing

@Suite struct HelpTextTests {
    /// The help overlay's keys are the key map's lines for the pager, in its order, and nothing
    /// more: a key bound in the map shows in the help, and the help lists no key that is not.
    @Test func theKeysGroupIsTheKeyMapsPagerHelp() throws {
        let keys = try #require(HelpText.groups.first { $0.title == "Keys" })
        let lines = KeyMap.helpLines(shownIn: .pager)
        #expect(keys.entries.map(\.input) == lines.map(\.keys))
        #expect(keys.entries.map(\.action) == lines.map(\.action))
        #expect(HelpText.groups.filter { $0.title != "Keys" && $0.title != "Keys in the photos" }.allSatisfy { !$0.title.contains("Key") })
    }

    /// The photos' keys (the grid's and a timeline's levels') are the key map's grid lines, and
    /// the levels' keys are among them.
    @Test func theKeysInThePhotosAreTheKeyMapsGridHelp() throws {
        let keys = try #require(HelpText.groups.first { $0.title == "Keys in the photos" })
        let lines = KeyMap.helpLines(shownIn: .grid).filter { $0.bindings.allSatisfy { $0.context == .grid } }
        #expect(keys.entries.map(\.input) == lines.map(\.keys))
        #expect(keys.entries.contains { $0.input == "y / m / d / a" })
    }
}

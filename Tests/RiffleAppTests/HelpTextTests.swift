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
        #expect(HelpText.groups.filter { $0.title != "Keys" }.allSatisfy { !$0.title.contains("Key") })
    }
}

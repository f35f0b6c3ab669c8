import RiffleDisplay
import RiffleX11
import Testing

/// What the window answers for each target of the CLIPBOARD it owns.
struct ClipboardTargetsTests {
    static let photo = ClipboardOffer.photo(uri: "file:///p/a%20b.jpg", png: { _ in [0x89, 0x50] })

    @Test func aPhotoOffersItsPNGAndURI() {
        #expect(ClipboardTargets.reply(to: "TARGETS", offer: Self.photo, claimedAt: 9)
            == .atoms(["TARGETS", "TIMESTAMP", "image/png", "text/uri-list"]))
        #expect(ClipboardTargets.reply(to: "TIMESTAMP", offer: Self.photo, claimedAt: 9) == .integer(9))
        // The PNG is made off the window's thread, when asked for (`BackgroundConversionTests`).
        #expect(ClipboardTargets.reply(to: "image/png", offer: Self.photo, claimedAt: 9) == .produced(type: "image/png"))
        #expect(ClipboardTargets.reply(to: "text/uri-list", offer: Self.photo, claimedAt: 9)
            == .bytes(type: "text/uri-list", Array("file:///p/a%20b.jpg\r\n".utf8)))
    }

    @Test(arguments: ["UTF8_STRING", "STRING", "MULTIPLE", "text/html", ""])
    func aPhotoRefusesOtherTargets(target: String) {
        #expect(ClipboardTargets.reply(to: target, offer: Self.photo, claimedAt: 1) == .refusal)
    }

    @Test func textOffersUTF8AndLatin1WhenItSpellsIt() {
        let text = ClipboardOffer.text("/p/café.jpg")
        #expect(ClipboardTargets.targets(for: text) == ["TARGETS", "TIMESTAMP", "UTF8_STRING", "text/plain;charset=utf-8", "STRING"])
        #expect(ClipboardTargets.reply(to: "UTF8_STRING", offer: text, claimedAt: 1) == .bytes(type: "UTF8_STRING", Array("/p/café.jpg".utf8)))
        #expect(ClipboardTargets.reply(to: "text/plain;charset=utf-8", offer: text, claimedAt: 1)
            == .bytes(type: "text/plain;charset=utf-8", Array("/p/café.jpg".utf8)))
        #expect(ClipboardTargets.reply(to: "STRING", offer: text, claimedAt: 1) == .bytes(type: "STRING", Array("/p/caf".utf8) + [0xE9, 0x2E, 0x6A, 0x70, 0x67]))
        #expect(ClipboardTargets.reply(to: "image/png", offer: text, claimedAt: 1) == .refusal)
    }

    @Test func textBeyondLatin1IsNotOfferedAsSTRING() {
        let text = ClipboardOffer.text("/p/写真.jpg")
        #expect(!ClipboardTargets.targets(for: text).contains("STRING"))
        #expect(ClipboardTargets.reply(to: "STRING", offer: text, claimedAt: 1) == .refusal)
    }
}

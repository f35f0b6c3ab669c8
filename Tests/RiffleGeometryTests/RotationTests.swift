import RiffleGeometry
import Testing

@Suite struct RotationTests {
    /// Whole quarter turns are exact swaps and negations, whatever the number of whole turns.
    @Test(arguments: [(0.0, 0), (1, 1), (2, 2), (3, 3), (4, 0), (-1, 3), (-6, 2), (9, 1)])
    func wholeQuarterTurnsAreExact(quarterTurns: Double, reduced: Int) {
        let r = Rotation(quarterTurns: quarterTurns)
        #expect(r.wholeQuarters == reduced)
        let p = Point(x: 0.1, y: 7.3)
        let want: Point = switch reduced {
        case 1: Point(x: -7.3, y: 0.1)
        case 2: Point(x: -0.1, y: -7.3)
        case 3: Point(x: 7.3, y: -0.1)
        default: p
        }
        #expect(r.apply(p) == want)
    }

    /// Clockwise on screen (y down): a quarter turn takes right to down.
    @Test func aQuarterTurnIsClockwiseOnScreen() {
        #expect(Rotation(quarterTurns: 1).apply(Point(x: 1, y: 0)) == Point(x: 0, y: 1))
        let eighth = Rotation(quarterTurns: 0.5).apply(Point(x: 1, y: 0))
        #expect(abs(eighth.x - 0.5.squareRoot()) < 1e-15 && abs(eighth.y - 0.5.squareRoot()) < 1e-15)
        #expect(Rotation(quarterTurns: 0.5).wholeQuarters == nil)
    }

    @Test func theBoundingBoxOfATurnedPicture() {
        let size = Size(width: 300, height: 200)
        #expect(Rotation(quarterTurns: 1).boundingSize(of: size) == Size(width: 200, height: 300))
        #expect(Rotation(quarterTurns: 2).boundingSize(of: size) == size)
        // At 45° both sides are (w + h)/√2.
        let diagonal = Rotation(quarterTurns: 0.5).boundingSize(of: size)
        #expect(abs(diagonal.width - 500 / 2.0.squareRoot()) < 1e-9 && abs(diagonal.height - diagonal.width) < 1e-9)
    }

    /// A quarter turn clockwise takes the picture's corners round: top-left to top-right,
    /// bottom-left to top-left; turning back undoes it.
    @Test func pointsOfATurnedPicture() {
        let size = Size(width: 300, height: 200), r = Rotation(quarterTurns: 1)
        #expect(r.turn(.zero, inPictureOf: size) == Point(x: 200, y: 0))
        #expect(r.turn(Point(x: 0, y: 200), inPictureOf: size) == .zero)
        #expect(r.turn(Point(x: 300, y: 200), inPictureOf: size) == Point(x: 0, y: 300))
        for q in [0.3, 1, 2, 2.7, -1] {
            let turn = Rotation(quarterTurns: q)
            let p = Point(x: 12.5, y: 170)
            let back = turn.unturn(turn.turn(p, inPictureOf: size), inPictureOf: size)
            #expect((back - p).length < 1e-9, "\(q) quarter turns")
        }
    }
}

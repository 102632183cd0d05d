import RenderCore
import Testing

@Suite("Matrix4 and Quaternion")
struct Matrix4Tests {
    @Test func inverseRoundTrips() throws {
        let m = Matrix4.translation(Vec3(1, -2, 3)) * Matrix4.rotation(angle: 0.7, axis: Vec3(1, 2, 3))
            * Matrix4.scale(Vec3(2, 3, 0.5))
        let inv = try #require(m.inverse)
        let id = m * inv
        for r in 0..<4 { for c in 0..<4 { #expect(abs(id[r, c] - (r == c ? 1 : 0)) < 1e-5) } }
        #expect(Matrix4.scale(Vec3(1, 0, 1)).inverse == nil)
    }

    @Test func columnMajorRoundTrip() {
        let values = (0..<16).map(Float.init)
        let m = Matrix4(columnMajor: values)
        #expect(m.columnMajor == values)
        #expect(m[1, 0] == 1 && m[0, 1] == 4)   // row 1 of column 0, row 0 of column 1
    }

    @Test func quaternionRotatesLikeMatrix() {
        let q = Quaternion(angle: .pi / 2, axis: Vec3(0, 0, 1))
        let v = q.rotate(Vec3(1, 0, 0))
        #expect((v - Vec3(0, 1, 0)).length < 1e-6)
        let m = q.matrix.transform(direction: Vec3(1, 0, 0))
        #expect((m - v).length < 1e-6)
    }

    @Test func lookAtLooksDownMinusZ() {
        let v = Matrix4.lookAt(eye: Vec3(0, 0, 5), target: .zero, up: Vec3(0, 1, 0))
        let p = v.transform(point: .zero)
        #expect(abs(p.z + 5) < 1e-6 && abs(p.x) < 1e-6)
    }
}

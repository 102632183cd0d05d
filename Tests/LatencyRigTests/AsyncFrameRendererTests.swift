// Frames drawn on their own thread: each job's frame is the frame the driver draws for that view
// on the caller's thread, picked up once, with the set-up and size the job carried.
import HeadTracking
import LatencyRig
import RenderCore
import Testing
import Viewer

@Suite("Async frame renderer")
struct AsyncFrameRendererTests {
    static func driver() throws -> FrameDriver {
        let setup = ViewingSetup()
        return FrameDriver(scene: try SceneLoader.load(path: "cube").scene(screen: setup.screen.value), setup: setup,
                           context: RenderContext(threads: 2, producesDepth: true), width: 8, height: 8)
    }

    static func pose(_ x: Double) -> FrameView { .pose(HeadPose(time: 0, position: Vec3d(x, 0, 0.6), state: .tracking)) }

    @Test func eachJobIsDrawnAsTheDriverDrawsItAndTakenOnce() throws {
        let reference = try Self.driver()
        let renderer = AsyncFrameRenderer(driver: try Self.driver())
        defer { renderer.stop() }
        for (index, x) in [0.0, 0.03, -0.05].enumerated() {
            var setup = ViewingSetup()
            setup.viewport = ScreenRect(minX: -0.1, maxX: 0.1, minY: -0.05, maxY: 0.05 + 0.01 * Float(index))
            let job = AsyncFrameRenderer.Job(view: Self.pose(x), sceneTime: 0, setup: setup, width: 160 + 8 * index, height: 90, index: index)
            #expect(renderer.submit(job))
            while !renderer.waitForFrame(seconds: 1) {}
            var drawn: [UInt32] = [], camera: Camera?, drawnX: Double?
            let taken = renderer.takeFinished { record, driver in
                drawn = driver.framebuffer.colorArray
                camera = record.camera
                drawnX = record.view.pose?.position.x
            }
            #expect(taken && drawnX == x)
            #expect(!renderer.takeFinished { _, _ in }, "a frame is taken once")
            reference.setup = setup
            reference.resize(width: 160 + 8 * index, height: 90)
            reference.render(Self.pose(x))
            #expect(drawn == reference.framebuffer.colorArray, "frame \(index)")
            #expect(camera == reference.camera(for: Self.pose(x)))
        }
        var idleSize = 0
        renderer.whenIdle { idleSize = $0.framebuffer.width }
        #expect(idleSize == 176)
    }
}

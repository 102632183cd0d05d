// FrameDriver: the one frame step — same bytes as `splatframe render`, viewports, eye sources.
import Foundation
import Testing
import HeadTracking
import ImageIO
import RenderCore
import Settings
import TestSupport
@testable import Viewer

@Suite("frame driver")
struct FrameDriverTests {
    static let setup = ViewingSetup(screen: ScreenGeometry(width: 0.6, height: 0.34))

    @Test func driverWithFixedEyeMatchesRenderCommandByteForByte() throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first: no .build/*/splatframe")
        let dir = TestData.temporaryDirectory("driver-render")
        let png = dir.appendingPathComponent("render.png").path
        let r = try BinaryLocator.run(binary, ["render", "--eye", "0.07,-0.03,0.55", "--size", "160x90", "--screen-mm", "600,340",
                                               "--threads", "2", "--out", png])
        #expect(r.status == 0, "\(r.stderr)")
        let fromCommand = try ImageFile.load(png)

        let scene = try SceneLoader.load(path: "cube").scene(screen: Self.setup.screen.value)
        let driver = FrameDriver(scene: scene, setup: Self.setup, context: RenderContext(threads: 1), width: 160, height: 90)
        driver.renderFrame(from: FixedEyeSource(eye: Vec3(0.07, -0.03, 0.55)), index: 0)
        let fromDriver = driver.framebuffer.image()
        #expect(fromDriver.pixels == fromCommand.pixels,
                "\(ImageComparison(fromDriver, fromCommand)); \(ImageComparison.writeFailureImages(name: "driver-vs-render", actual: fromDriver, expected: fromCommand))")
    }

    @Test func aViewportIsThePartOfTheWholeScreenPictureBehindIt() throws {
        let scene = try SceneLoader.load(path: "cube").scene(screen: Self.setup.screen.value)
        let eye = FixedEyeSource(eye: Vec3(0.04, 0.02, 0.6))
        let full = FrameDriver(scene: scene, setup: Self.setup, context: RenderContext(threads: 1), width: 320, height: 180)
        full.renderFrame(from: eye, index: 0)
        var left = Self.setup
        left.viewport = ScreenRect(minX: -0.3, maxX: 0, minY: -0.17, maxY: 0.17)
        let half = FrameDriver(scene: scene, setup: left, context: RenderContext(threads: 1), width: 160, height: 180)
        half.renderFrame(from: eye, index: 0)
        let whole = full.framebuffer.image()
        let expected = RGBAImage(width: 160, height: 180, pixels: (0..<180).flatMap { y in whole.pixels[(y * 320)..<(y * 320 + 160)] })
        let c = ImageComparison(half.framebuffer.image(), expected)
        #expect(c.psnr >= 40, "\(c)")
    }

    @Test func cameraViewsBringTheirSizeAndBackground() throws {
        let scene = try SceneLoader.load(path: "generate:200").sceneInOwnCoordinates(screen: Self.setup.screen.value)
        var cam = OffAxisFrustum.camera(eye: Vec3(0, 0, 3), screen: ScreenGeometry(width: 6, height: 3.4), width: 40, height: 30)
        cam.background = Vec3(0, 0, 1)
        let driver = FrameDriver(scene: scene, setup: Self.setup, context: RenderContext(threads: 1), width: 8, height: 8)
        let record = driver.renderFrame(from: FixedCameraSource(camera: cam), index: 0)
        #expect(driver.framebuffer.width == 40 && driver.framebuffer.height == 30)
        #expect(scene.background == Vec3(0, 0, 1))
        #expect(record.view.pose == nil && record.complete >= record.renderStart && record.renderStart >= record.viewTime)
        let blue = driver.framebuffer.image().pixels.filter { PackedColor.channels($0)[0] == 0 && PackedColor.channels($0)[2] == 255 }.count
        #expect(blue > 40 * 30 / 4, "the camera's blue background shows around the object")
    }

    @Test func replayAndFigureEightSourcesAreDeterministic() throws {
        let log = TestData.temporaryDirectory("driver-replay").appendingPathComponent("t.csv").path
        try "t,x,y,z\n0,0,0,0.6\n1,0.1,0.05,0.5\n".write(toFile: log, atomically: true, encoding: .utf8)
        func eyes() throws -> [Vec3] {
            var o = HeadTrackingOptions(); o.head = .replay(path: log); o.filter = FilterSpec.none
            let source = ReplayEyeSource(session: try HeadTrackingSession(options: o), rate: 10)
            return (0..<11).map { source.view(frame: $0).pose!.eye }
        }
        let a = try eyes(), b = try eyes()
        #expect(a == b)
        #expect(abs(a[10].x - 0.1) < 1e-6 && abs(a[10].z - 0.5) < 1e-6)
        let f = FigureEightEyeSource(rate: 60)
        #expect(f.view(frame: 30).pose!.eye == FigureEightEyeSource.eye(at: 0.5))
    }

    @Test func setupPrecedenceIsFlagThenConfigThenDisplayThenDefault() {
        var config = ConfigFile()
        config.screenWidthMM = 500; config.screenHeightMM = 300; config.movementScale = 1.5; config.neutralEyeMM = [0, 0, 700]
        let display = ScreenGeometry(width: 0.7, height: 0.4)
        let flag = ScreenGeometry(width: 0.3, height: 0.2)
        #expect(ViewingSetup.resolve(screenFlag: flag, config: config, display: display).screen == Resolved(flag, .flag))
        let c = ViewingSetup.resolve(config: config, display: display)
        #expect(c.screen.origin == .configFile && abs(c.screen.value.width - 0.5) < 1e-6)
        #expect(c.movementScale == Resolved(1.5, .configFile) && abs(c.neutralEye.value.z - 0.7) < 1e-12)
        #expect(c.viewport == ScreenRect(screen: c.screen.value))
        #expect(ViewingSetup.resolve(movementScaleFlag: 2, config: config).movementScale == Resolved(2, .flag))
        #expect(ViewingSetup.resolve(display: display).screen == Resolved(display, .display))
        #expect(ViewingSetup.resolve().screen == Resolved(ScreenGeometry.fallback, .default))
        var half = ConfigFile(); half.screenWidthMM = 500
        let h = ViewingSetup.resolve(config: half, display: display)
        #expect(abs(h.screen.value.height - 0.4) < 1e-6, "a config giving only the width keeps the display's height")
        #expect(c.trackingGeometry.movementScale == 1.5)
    }
}

@Suite("window placement")
struct WindowPlacementTests {
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)

    @Test func aFullWindowIsTheWholeScreenAndAHalfIsItsHalf() {
        let full = WindowPlacement(windowX: 0, windowY: 0, windowWidth: 1920, windowHeight: 1080,
                                   displayX: 0, displayY: 0, displayWidth: 1920, displayHeight: 1080)
        #expect(full.viewport(on: Self.screen) == ScreenRect(screen: Self.screen))
        let left = WindowPlacement(windowX: 0, windowY: 0, windowWidth: 960, windowHeight: 1080,
                                   displayX: 0, displayY: 0, displayWidth: 1920, displayHeight: 1080)
        let v = left.viewport(on: Self.screen)
        #expect(abs(v.minX + 0.3) < 1e-6 && abs(v.maxX) < 1e-6 && abs(v.minY + 0.17) < 1e-6 && abs(v.maxY - 0.17) < 1e-6)
    }

    @Test func onlyWaylandHidesTheWindowsPosition() {
        #expect(!WindowPlacement.driverKnowsPosition("wayland") && !WindowPlacement.driverKnowsPosition("Wayland"))
        #expect(WindowPlacement.driverKnowsPosition("x11") && WindowPlacement.driverKnowsPosition("KMSDRM"))
        #expect(WindowPlacement.positionUnknownNotice.hasPrefix("Wayland") && !WindowPlacement.positionUnknownNotice.contains("\n"))
    }

    @Test func movingTheWindowMovesItsRectangleByThePhysicalAmount() {
        // A 640×360 window at (100, 50) on a second display whose bounds start at x = 1920.
        let a = WindowPlacement(windowX: 2020, windowY: 50, windowWidth: 640, windowHeight: 360,
                                displayX: 1920, displayY: 0, displayWidth: 1920, displayHeight: 1080, display: 1)
        var b = a
        b.windowX += 192; b.windowY += 108   // a tenth of the display each way
        let va = a.viewport(on: Self.screen), vb = b.viewport(on: Self.screen)
        #expect(abs((vb.minX - va.minX) - 0.06) < 1e-6 && abs((vb.maxY - va.maxY) + 0.034) < 1e-6)
        #expect(abs(va.width - 0.2) < 1e-6 && abs(va.height - 0.34 / 3) < 1e-6)
        let centre = a.screenPoint(windowX: 320, y: 180, on: Self.screen)
        #expect(abs(centre.x - Double(va.center.x)) < 1e-6 && abs(centre.y - Double(va.center.y)) < 1e-6)
    }

    @Test func twoWindowsSideBySideShowOneContinuousWorld() throws {
        let scene = try SceneLoader.load(path: "cube").scene(screen: Self.screen)
        let eye = FixedEyeSource(eye: Vec3(-0.05, 0.03, 0.55))
        func render(_ p: WindowPlacement) -> RGBAImage {
            var setup = ViewingSetup(screen: Self.screen)
            setup.viewport = p.viewport(on: Self.screen)
            let d = FrameDriver(scene: scene, setup: setup, context: RenderContext(threads: 1), width: p.windowWidth, height: p.windowHeight)
            d.renderFrame(from: eye, index: 0)
            return d.framebuffer.image()
        }
        let whole = render(WindowPlacement(windowX: 0, windowY: 0, windowWidth: 320, windowHeight: 180,
                                           displayX: 0, displayY: 0, displayWidth: 320, displayHeight: 180))
        let right = render(WindowPlacement(windowX: 160, windowY: 0, windowWidth: 160, windowHeight: 180,
                                           displayX: 0, displayY: 0, displayWidth: 320, displayHeight: 180))
        let expected = RGBAImage(width: 160, height: 180, pixels: (0..<180).flatMap { y in whole.pixels[(y * 320 + 160)..<(y * 320 + 320)] })
        let c = ImageComparison(right, expected)
        #expect(c.psnr >= 40, "\(c)")
    }
}

// CardCalibrationScreen — F2 and `splatframe calibrate`: the card outline on the whole display;
// arrows or the wheel resize it, Enter saves the screen's size to the config file.
import Foundation
import RenderCore
import Settings
import Viewer

/// One screen calibration in progress.
final class CardCalibrationScreen {
    /// What the loop should do after an action.
    enum Outcome { case stay, close, saved }

    private(set) var card: CardCalibration
    let configPath: String?

    init(card: CardCalibration, configPath: String?) {
        self.card = card; self.configPath = configPath
    }

    /// Resizes the outline or saves; `flash` shows a message on the scene's HUD.
    func perform(_ action: WindowAction, setup: inout ViewingSetup, flash: (String, Double) -> Void) -> Outcome {
        switch action {
        case .resizeCard(let steps, let fine):
            card.resize(steps: steps, fine: fine)
        case .back:
            return .close
        case .saveCard:
            let mm = card.screenMM
            let w = (mm.width * 10).rounded() / 10, h = (mm.height * 10).rounded() / 10
            guard let configPath else { flash("NO CONFIG FILE TO SAVE TO", 2.5); return .stay }
            do {
                try ConfigFile.update(path: configPath, ["screenWidthMM": w, "screenHeightMM": h])
                FileHandle.standardError.write(Data("splatframe: saved screen \(w)x\(h) mm to \(configPath)\n".utf8))
                setup.screen = Resolved(ScreenGeometry(width: Float(w / 1000), height: Float(h / 1000)), .configFile)
                flash("SCREEN \(w) X \(h) MM SAVED TO \(configPath)".uppercased(), 6)
                return .saved
            } catch { flash("NOT SAVED: \(error)".uppercased(), 6) }
        default:
            break
        }
        return .stay
    }

    /// The wheel resizes the outline (Shift: finely).
    func wheel(_ steps: Double, fine: Bool) { card.resize(steps: steps, fine: fine) }

    /// The outline over the whole drawable, and the current message at the bottom.
    func draw(into fb: Framebuffer, text: WindowText, message: String?) {
        card.draw(into: fb, text: text)
        if let message { text.draw(message, x: 8, y: fb.height - text.lineHeight - 4, into: fb) }
    }
}

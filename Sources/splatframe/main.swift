import ArgumentParser
SplatFrameCommand.main()

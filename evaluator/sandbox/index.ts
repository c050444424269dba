export { Sandbox, withSandbox, installSignalCleanup, removeLiveSandboxes, type ExecResult } from "./container";
export { wasInterrupted } from "./interrupt";
export { docker, assertEngine, ensureImage, imageExists, engineAddress } from "./docker";
export { defaultLimits, type SandboxLimits } from "./limits";
export { describeDiskExceeded, type DiskExceeded } from "./disk-watch";
export { cloneAtCommit, imageFromDirectory, ensureRepoImage } from "./images";
export { ChainContainers, type BeforeRemove } from "./chain-containers";
export { filesOfTar } from "./tar";
export { OutputFrames } from "./output";

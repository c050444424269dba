export { bundleFiles, bundleLogPath, bugKey, environmentSchema, MANIFEST_FILE, sha256, type BundleEnvironment, type BundleInput } from "./bundle";
export { firstDifference, verifyBundle, type BundleCheck, type BundleProblem } from "./verify";

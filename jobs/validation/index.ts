export {
  claimValidationJob,
  completeValidation,
  enqueueValidations,
  failValidation,
  heartbeatValidation,
  releaseValidation,
  type ClaimedValidation,
  type ValidationVerdict,
} from "./jobs";
export { ValidationRun, type ValidationRunContext } from "./run";

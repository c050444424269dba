/**
 * Every way a request can change something on the site, for the CSRF tests
 * (tests/e2e/hostile-web.spec.ts runs one forged request per entry) and for
 * the unit test that scans app/ and fails when a state-changing route handler
 * or server action is missing here (tests/unit/state-changing-routes.test.ts).
 * Plain data: imported by Playwright and by vitest.
 */

/** Route handlers exporting POST, PUT, PATCH or DELETE: `<file under app/> <METHOD>`. */
export const STATE_CHANGING_ROUTES = [
  "app/api/auth/[...nextauth]/route.ts POST",
  "app/api/v1/submissions/route.ts POST",
  "app/api/v1/submissions/[id]/route.ts DELETE",
  "app/api/v1/submissions/[id]/cancel/route.ts POST",
  "app/api/v1/submissions/[id]/publication/route.ts POST",
  "app/api/v1/submissions/[id]/rerun/route.ts POST",
  "app/api/v1/proposals/route.ts POST",
] as const;
export type StateChangingRoute = (typeof STATE_CHANGING_ROUTES)[number];

/** Exported server actions ("use server" modules): `<file> <export>`. */
export const SERVER_ACTIONS = [
  "app/account/actions.ts createTokenAction",
  "app/account/actions.ts revokeTokenAction",
  "app/account/actions.ts changePasswordAction",
  "app/admin/actions.ts changeSiteRoleAction",
  "app/admin/actions.ts regradeAction",
  "app/admin/actions.ts releaseVersionAction",
  "app/signup/actions.ts signUpAction",
  "app/submissions/[id]/actions.ts visibilityAction",
  "app/submissions/[id]/actions.ts cancelAction",
  "app/submissions/[id]/actions.ts rerunAction",
  "app/submissions/[id]/actions.ts trajectoriesAction",
  "app/submissions/[id]/actions.ts deleteAction",
  "app/teams/actions.ts createTeamAction",
  "app/teams/actions.ts createSystemAction",
  "app/teams/actions.ts updateSystemAction",
  "app/teams/actions.ts inviteMemberAction",
  "app/teams/actions.ts invitationAction",
  "app/teams/actions.ts memberAction",
  "app/teams/actions.ts saveWebhookAction",
  "app/teams/actions.ts webhookAction",
  "app/notifications/actions.ts markAllReadAction",
  "app/dataset/proposals/[id]/actions.ts reviewChainAction",
] as const;
export type ServerAction = (typeof SERVER_ACTIONS)[number];

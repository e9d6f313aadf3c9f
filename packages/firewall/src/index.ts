// @palisade/firewall: firewall rulesets, NAT and routes → nftables and iproute2 text; pure.
export { renderFirewall, renderFirewallRemoval, TABLE } from './render.js';
export type { FirewallInput, FirewallOutput } from './render.js';
export { renderRoutes } from './routes.js';
export type { RoutesOptions } from './routes.js';
export { validateNetwork, validateRuleset } from './validate.js';
export type { Problem } from './problems.js';
export { INLINE_MAX } from './sets.js';
export { checkLockout, evaluate, planRuleset } from './lockout.js';
export type { LockoutInput, LockoutProblem, Packet, ServerEndpoint, Verdict } from './lockout.js';
export { checkRouteLockout, serverRoute } from './route-lockout.js';
export type { RouteLockoutProblem, ServerRoute } from './route-lockout.js';

// The rollouts domain's face to the app, pure (docs/rollouts.md): the canary's sequential decision rule,
// the plan, the contract gate's check and the rollout's state machine; the runner's I/O is rollout-runner/.
export {
  DEFAULT_ROLLOUT_RULE,
  rolloutRuleFromEnv,
  type LowTrafficPolicy,
  type RolloutRuleParameters,
} from './parameters';
export {
  decide,
  VITALS,
  whatWouldChange,
  type ArmPair,
  type MetricResult,
  type RuleDecision,
  type RuleInput,
  type RuleResult,
} from './rule';
export type { Count } from './sequential';
export { defaultPlan, describePlan, durationSeconds, parsePlan, type PlanLimits } from './plan';
export { contractCompatible, parseHostBuildInfo, type HostContract } from './contract';
export {
  earliestAdvanceAt,
  nextAction,
  type MachineAction,
  type MachineFacts,
  type MachineRollout,
} from './state-machine';

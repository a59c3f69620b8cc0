// The rollouts domain's face to the app: today, the canary's sequential decision rule (docs/rollouts.md).
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

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  ACCESS_IDENTITY_PROPERTIES,
  API_ERROR_CODES,
  PUBLISHED_BUILD_PROPERTIES,
  REMOTE_ROLLOUT_PLAN_PROPERTIES,
  ROLLOUT_CONTROLS,
  ROLLOUT_EVENT_KINDS,
  ROLLOUT_GATES,
  ROLLOUT_PLAN_SOURCES,
  ROLLOUT_PROPERTIES,
  ROLLOUT_STATES,
  GATE_OUTCOMES,
  ROLE_NEEDED,
  CREATED_SIGN_UP_PROPERTIES,
  PUBLIC_SIGN_UP_PROPERTIES,
  SIGN_UP_ERROR_CODES,
  SIGN_UP_FIELDS,
} from '.';
import { BUILD_ID_PATTERN, REMOTE_NAME_PATTERN } from '../builds';
import {
  BUILD_ID,
  CANARY_DECISION_PROPERTIES,
  CANARY_DECISIONS,
  DEVICES,
  EVENT_TYPES,
  VITAL_NAMES,
} from '../telemetry';

/** The schemas of api/openapi.yaml, the document API users read; it must say what the code does. */
interface Schema {
  required?: string[];
  properties?: Record<string, Schema>;
  enum?: Array<string | null>;
  allOf?: Array<Schema & { $ref?: string }>;
  propertyNames?: Schema;
  pattern?: string;
  additionalProperties?: Schema;
}
const document = parse(readFileSync(join(__dirname, '..', '..', '..', 'api', 'openapi.yaml'), 'utf8')) as {
  components: { schemas: Record<string, Schema> };
};
const schemas = document.components.schemas;
const schema = (name: string): Schema => {
  const found = schemas[name];
  if (!found) throw new Error(`api/openapi.yaml has no schema ${name}`);
  return found;
};
const keys = (value: Schema | undefined) => Object.keys(value?.properties ?? {});

describe('api/openapi.yaml documents the wire contract of @special-gift/shared/api', () => {
  it('the error body: its shape, every code, and the field codes', () => {
    const error = schema('ErrorBody').properties?.error;
    expect(schema('ErrorBody').required).toEqual(['error']);
    expect(error?.required).toEqual(['code', 'message']);
    expect(keys(error)).toEqual(['code', 'message', 'fields', 'problems']);
    expect(error?.properties?.code?.enum).toEqual([...API_ERROR_CODES]);
    expect(error?.properties?.fields?.propertyNames?.enum).toEqual([...SIGN_UP_FIELDS]);
    expect(schema('SignUpErrorCode').enum).toEqual([...SIGN_UP_ERROR_CODES]);
  });

  it('the request: every field of the form', () => {
    expect(keys(schema('SignUpInput'))).toEqual([...SIGN_UP_FIELDS]);
  });

  it('the answers: a sign-up, and the created one with its read token', () => {
    expect(keys(schema('SignUp'))).toEqual([...PUBLIC_SIGN_UP_PROPERTIES]);
    expect(schema('SignUp').required).toEqual([...PUBLIC_SIGN_UP_PROPERTIES]);
    const [base, extra] = schema('CreatedSignUp').allOf ?? [];
    expect(base?.$ref).toBe('#/components/schemas/SignUp');
    expect([...PUBLIC_SIGN_UP_PROPERTIES, ...keys(extra)]).toEqual([...CREATED_SIGN_UP_PROPERTIES]);
    expect(extra?.required).toEqual(keys(extra));
  });

  it('the token as GET /v1/access/me says it, with every action a role may do', () => {
    expect(keys(schema('AccessIdentity'))).toEqual([...ACCESS_IDENTITY_PROPERTIES]);
    expect(schema('AccessIdentity').required).toEqual([...ACCESS_IDENTITY_PROPERTIES]);
    const actions = schema('AccessIdentity').properties?.actions as Schema & { items?: Schema };
    expect(actions.items?.enum).toEqual(Object.keys(ROLE_NEEDED));
  });

  it("a rollout, its timeline, and the gate runner's job and result", () => {
    expect(keys(schema('Rollout'))).toEqual([...ROLLOUT_PROPERTIES]);
    expect(schema('Rollout').required).toEqual([...ROLLOUT_PROPERTIES]);
    expect(schema('Rollout').properties?.state?.enum).toEqual([...ROLLOUT_STATES]);
    const [base, extra] = schema('RolloutDetail').allOf ?? [];
    expect(base?.$ref).toBe('#/components/schemas/Rollout');
    expect(keys(extra)).toEqual(['gates', 'events', 'approvals', 'lastCheck']);
    const items = (name: string) => (extra?.properties?.[name] as Schema & { items?: Schema }).items;
    expect(items('gates')?.properties?.gate?.enum).toEqual([...ROLLOUT_GATES]);
    expect(items('events')?.properties?.kind?.enum).toEqual([...ROLLOUT_EVENT_KINDS]);
    expect(keys(schema('RolloutPlan'))).toEqual(['steps', 'promote', 'minNewViewsPerStep', 'lowTraffic']);
    expect(schema('Rollout').properties?.planSource?.enum).toEqual([...ROLLOUT_PLAN_SOURCES, null]);
    expect(keys(schema('RemoteRolloutPlan'))).toEqual([...REMOTE_ROLLOUT_PLAN_PROPERTIES]);
    expect(schema('RemoteRolloutPlan').required).toEqual([...REMOTE_ROLLOUT_PLAN_PROPERTIES]);
    expect(keys(schema('GateJob'))).toEqual([
      'rolloutId',
      'environment',
      'remote',
      'buildId',
      'gate',
      'nonce',
      'route',
      'integrity',
      'previewCookie',
      'deadline',
    ]);
    expect(keys(schema('GateResult'))).toEqual(['nonce', 'outcome', 'reason', 'detail']);
    expect(schema('GateResult').properties?.outcome?.enum).toEqual([...GATE_OUTCOMES]);
    const paths = (
      document as unknown as {
        paths: Record<string, { post?: { parameters?: Array<Schema & { name?: string; schema?: Schema }> } }>;
      }
    ).paths;
    const control = paths['/v1/rollouts/{id}/{control}']?.post?.parameters?.find(
      (parameter) => parameter.name === 'control',
    );
    expect(control?.schema?.enum).toEqual([...ROLLOUT_CONTROLS]);
  });

  it('a published build, with its footprint', () => {
    expect(keys(schema('PublishedBuild'))).toEqual([...PUBLISHED_BUILD_PROPERTIES]);
    expect(schema('PublishedBuild').required).toEqual([...PUBLISHED_BUILD_PROPERTIES]);
  });

  it('the telemetry batch: its keys, devices, event types and vitals', () => {
    expect(keys(schema('TelemetryBatch'))).toEqual(['v', 'route', 'device', 'builds', 'events', 'token']);
    expect(schema('TelemetryBatch').properties?.device?.enum).toEqual([...DEVICES]);
    const events = (
      schema('TelemetryEvent') as Schema & { oneOf: Array<Schema & { properties: Record<string, { const?: string }> }> }
    ).oneOf;
    expect(events.map((event) => event.properties.type?.const)).toEqual([...EVENT_TYPES]);
    expect(events[3]?.properties.name).toMatchObject({ enum: [...VITAL_NAMES] });
  });

  it("a remote's name and a build's id, as @special-gift/shared/builds spells them", () => {
    expect(schema('RemoteName').pattern).toBe(REMOTE_NAME_PATTERN.source);
    expect(schema('BuildId').pattern).toBe(BUILD_ID_PATTERN.source);
    expect(schema('TelemetryBatch').properties?.builds?.additionalProperties?.pattern).toBe(BUILD_ID.source);
  });

  it('the canary decision: its keys and its three outcomes', () => {
    expect(keys(schema('CanaryDecision'))).toEqual([...CANARY_DECISION_PROPERTIES]);
    expect(schema('CanaryDecision').required).toEqual([...CANARY_DECISION_PROPERTIES]);
    expect(schema('CanaryDecision').properties?.decision?.enum).toEqual([...CANARY_DECISIONS]);
  });
});

// The funnel agent's shared vocabulary (issue: investigations past the sign-up wall). Pure types and
// constants, shared by the workflow, the activities, the mail receiver, the guidance routes and the
// planner, so that each part can be built and tested on its own.

/** The funnel's named states, after CAPTURE and EXPLORE, when the deposit page is gated. */
export const FUNNEL_STATES = ['REGISTER', 'VERIFY_CONTACT', 'LOGIN', 'NAVIGATE_DEPOSIT'] as const;
export type FunnelState = (typeof FUNNEL_STATES)[number];

/** The state a scan waits in while a human is asked (GET/POST /investigations/ssi/{scan_id}/guidance). */
export const AWAITING_GUIDANCE = 'AWAITING_GUIDANCE' as const;

/** What a site asked the persona for (the detail's `pii_exposures`). */
export const PII_EXPOSURE_KINDS = ['email', 'phone', 'name', 'password', 'birth_date', 'address', 'id_number', 'card', 'other'] as const;
export type PiiExposureKind = (typeof PII_EXPOSURE_KINDS)[number];
export interface PiiExposure {
  kind: PiiExposureKind;
  page_url: string;
  /** The funnel state the form was met in. */
  state: string;
  /** The field's label, name or placeholder as the page showed it (never the value typed). */
  field: string | null;
}

/**
 * A verification mail reached a persona: the workflow `ssi-<scan_id>` gets this signal
 * (`personaMailSignal` in workflows/investigations/funnel-signals.ts). Carries no persona data:
 * the codes and links are the site's, the mail itself is stored as evidence under `mailId`.
 */
export interface PersonaMailSignal {
  mailId: string;
  codes: string[];
  links: string[];
}

export const GUIDANCE_KINDS = ['captcha', 'choice', 'unknown'] as const;
export type GuidanceKind = (typeof GUIDANCE_KINDS)[number];

/** What the agent asks a human (GET /investigations/ssi/{scan_id}/guidance). */
export interface GuidanceRequest {
  request_id: string;
  kind: GuidanceKind;
  question: string;
  screenshot_url: string;
  /** The field the answer is typed into (a selector the agent chose), when there is one. */
  field?: string;
}

/** A human's reply (POST /investigations/ssi/{scan_id}/guidance), the `guidanceAnswerSignal` payload. */
export type GuidanceAnswer = { request_id: string; answer: string } | { request_id: string; action: 'abort' };

/** One step the agent takes on a page: chosen by the playbook, the heuristics or the LLM planner. */
export type FunnelAction =
  | { kind: 'fill'; selector: string; /** a persona field, never a literal secret */ persona_field: PersonaField }
  | { kind: 'fill_text'; selector: string; text: string }
  | { kind: 'check'; selector: string }
  | { kind: 'select'; selector: string; value: string }
  | { kind: 'click'; selector: string }
  | { kind: 'navigate'; url: string }
  | { kind: 'ask_human'; guidance_kind: GuidanceKind; question: string; field?: string }
  | { kind: 'done'; reason: string }
  | { kind: 'give_up'; reason: string };

/** The persona's fields an action may type (the values live in the vault only). */
export const PERSONA_FIELDS = ['email', 'password', 'first_name', 'last_name', 'full_name', 'username', 'phone', 'birth_date', 'address_line', 'city', 'postcode', 'country', 'verification_code'] as const;
export type PersonaField = (typeof PERSONA_FIELDS)[number];

/** What the LLM planner is shown of a page: text first (the accessibility tree), the screenshot only when asked. */
export interface FunnelObservation {
  goal: FunnelState;
  url: string;
  title: string | null;
  /** The page's accessibility tree (Playwright's aria snapshot), trimmed to a bound. */
  accessibility_tree: string;
  /** Earlier actions of this funnel with their outcomes, oldest first. */
  history: Array<{ action: FunnelAction; outcome: string }>;
}

/** The planner's bounds per investigation (settings SVC_SSI__AGENT_MAX_STEPS / _MAX_TOKENS / _MAX_SECONDS). */
export interface PlannerBudget {
  maxSteps: number;
  maxTokens: number;
  maxSeconds: number;
}

/**
 * The LLM planner (services/investigations/funnel-planner.ts), the last step of the decision cascade
 * (playbook, heuristics, planner). Present only when an Anthropic key is configured. Every prompt and
 * answer goes to the scan's action log; a spent budget answers `give_up` with reason 'budget: …'.
 */
export interface FunnelPlanner {
  plan(scanId: string, observation: FunnelObservation, screenshot: () => Promise<Buffer>): Promise<FunnelAction>;
}

/** What a form field is for, as the heuristics read it (domain/investigations/funnel-vocabulary.ts). */
export type FieldKind = PersonaField | 'password_confirm' | 'terms' | 'captcha' | 'unknown';
/** What a button or link does, as the heuristics read it. */
export const CONTROL_KINDS = ['register', 'login', 'submit', 'next', 'deposit', 'accept_cookies', 'close_modal', 'send_code', 'verify', 'unknown'] as const;
export type ControlKind = (typeof CONTROL_KINDS)[number];

/** A form field as the page shows it (read in the browser; no value). */
export interface FieldDescriptor {
  tag: 'input' | 'select' | 'textarea';
  type: string;
  name: string;
  id: string;
  label: string;
  placeholder: string;
  autocomplete: string;
  required: boolean;
}

/** A button or link as the page shows it. */
export interface ControlDescriptor {
  tag: string;
  role: string;
  text: string;
  ariaLabel: string;
  href: string | null;
}

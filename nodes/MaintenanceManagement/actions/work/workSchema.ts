import { z } from 'zod/v3';

import { choices } from '../../../shared/options';
import {
	boolean,
	hhmm,
	id,
	idList,
	integer,
	lazy,
	number,
	oneOf,
	text,
} from '../../../shared/schemas';

export const WORK_TYPES = choices({
	CYCLIC: {
		name: 'Cyclic',
		description:
			'Repeats on its recurrence; needs interventions, may close automatically and run on auto pilot',
	},
	PLAN: {
		name: 'Plan',
		description: 'Needs interventions; may close automatically and run on auto pilot',
	},
	SPECIAL: {
		name: 'Special',
		description: 'May list procedures; takes no interventions, auto close or auto pilot',
	},
});
export const FREQUENCIES = choices({
	HOURLY: 'Hourly',
	DAILY: 'Daily',
	WEEKLY: 'Weekly',
	MONTHLY: 'Monthly',
	YEARLY: 'Yearly',
	UBM: 'UBM',
});
export const NOTIFICATION_TRIGGERS = choices({ CLOSE: 'Close', CONFIRM: 'Confirm' });

/** The non-empty parts of comma-separated text, trimmed. */
const commaParts = (text: string): string[] =>
	text
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean);

/** Comma-separated text, or an array, as a list of strings. */
const stringList = () =>
	z.preprocess(
		(value) => (typeof value === 'string' ? commaParts(value) : value),
		z.array(z.string({ invalid_type_error: 'must be text' }), {
			invalid_type_error: 'must be a comma-separated list',
		}),
	);

/** Milliseconds of an ISO 8601 or `YYYY-MM-DD HH:mm:ss` date-time, NaN when it is not one. */
const timeOf = (value: string): number => Date.parse(value.replace(' ', 'T'));

/** A date and time as text. Text is sent as entered; a date object from an expression is sent as ISO 8601. */
const dateTime = () =>
	z.preprocess(
		(value) => {
			if (value instanceof Date) return Number.isNaN(value.getTime()) ? value : value.toISOString();
			const toISO = (value as { toISO?: unknown } | null)?.toISO;
			return typeof value === 'object' && typeof toISO === 'function'
				? (toISO.call(value) ?? value)
				: value;
		},
		z
			.string({ invalid_type_error: 'must be a date and time, such as 2026-05-01T08:00:00' })
			.trim()
			.refine(
				(value) => !Number.isNaN(timeOf(value)),
				'must be a date and time, such as 2026-05-01T08:00:00',
			),
	);

const intervention = () =>
	z
		.object({
			id: id(),
			elements: z
				.preprocess(
					(value) =>
						typeof value === 'string'
							? commaParts(value).map((element) => ({ id: element }))
							: value,
					z.array(
						z
							.object({ id: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), text()) })
							.strict(),
					),
				)
				.optional(),
		})
		.strict();

/** An optional list of objects, each with these fields and no other. */
const listOf = (shape: z.ZodRawShape) => z.array(z.object(shape).strict()).optional();

const slaRule = () =>
	z
		.object({
			calendar_id: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), text()).optional(),
			notify_hours: integer().nullable().optional(),
			pausable: boolean().optional(),
			start_status: z.string().optional(),
			target_hours: integer().optional(),
			target_status: z.string().optional(),
			specify_pause_reason: boolean().optional(),
			pause_reasons: stringList().optional(),
			sla_rules_receivers: listOf({
				notify_client_building_responsibles: boolean().optional(),
				notify_work_responsibles: boolean().optional(),
				operators: idList().optional(),
			}),
		})
		.strict()
		.superRefine((rule, context) => {
			if (rule.specify_pause_reason && !(rule.pause_reasons && rule.pause_reasons.length > 0)) {
				context.addIssue({
					code: 'custom',
					path: ['pause_reasons'],
					message: 'needs at least one pause reason when Specify Pause Reason is on',
				});
			}
		});

/** A job's reminders: whom to notify, and how many hours ahead. */
const reminderRules = () =>
	listOf({
		calendar_id: id().optional(),
		notes: z.string().optional(),
		notify_hours: integer().optional(),
		notify_client_contacts: boolean().optional(),
		notify_building_contacts: boolean().optional(),
		notify_contacts: idList().optional(),
	});

/** Whom to notify when a job closes or is confirmed. */
const workNotifications = () =>
	listOf({
		trigger: oneOf(NOTIFICATION_TRIGGERS.values),
		client_contacts: boolean().optional(),
		building_contacts: boolean().optional(),
		client_operators: boolean().optional(),
		building_operators: boolean().optional(),
		technical_skill_operators: boolean().optional(),
		specific_contacts: idList().optional(),
		specific_operators: idList().optional(),
	});

/** The fields of POST /works, each with its own checks. */
const workFields = () =>
	z
		.object({
			type: oneOf(WORK_TYPES.values),
			name: text(),
			work_type_id: id(),
			local_id: idList().refine(
				(list) => (list as number[]).length > 0,
				'needs at least one location ID',
			),
			client_id: id(),
			description: z.string({ invalid_type_error: 'must be text' }).nullable().optional(),
			any_responsible: boolean().optional(),
			auto_close: boolean().optional(),
			auto_pilot: boolean().optional(),
			auto_schedule: listOf({
				is_enabled: boolean().optional(),
				start_time: hhmm(),
				end_time: hhmm(),
				operators: idList().refine(
					(list) => (list as number[]).length > 0,
					'needs at least one operator ID',
				),
			}),
			calendar_id: id().optional(),
			cost_center_id: id().nullable().optional(),
			failure_id: id().nullable().optional(),
			gatekeeper_id: id().optional(),
			gatekeeper_notification: idList().optional(),
			interventions: z.array(intervention()).optional(),
			is_protected: boolean().optional(),
			operator_id: idList().optional(),
			procedures: listOf({
				task: text(),
				quantity: number().optional(),
				unit: z.string().optional(),
			}),
			recurrence: z
				.object({
					DTSTART: dateTime().optional(),
					UNTIL: dateTime().optional(),
					FREQ: oneOf(FREQUENCIES.values).optional(),
					INTERVAL: number()
						.refine((value) => (value as number) >= 0, 'must be 0 or more')
						.optional(),
				})
				.strict()
				.optional(),
			reminder_rules: reminderRules(),
			sla_rules: z.array(slaRule()).optional(),
			supplier_id: id().nullable().optional(),
			technical_skill_id: idList().optional(),
			work_notifications: workNotifications(),
		})
		.strict();

type Work = z.infer<ReturnType<typeof workFields>>;

/** The rules of the spec's table that tie the fields of POST /works to one another. */
function checkWork(work: Work, issue: (path: Array<string | number>, message: string) => void) {
	const cyclicOrPlan = work.type === 'CYCLIC' || work.type === 'PLAN';
	if (
		work.any_responsible === false &&
		!work.operator_id?.length &&
		!work.technical_skill_id?.length
	) {
		issue(
			['operator_id'],
			'is required when Any Responsible is off: set Operator IDs or Technical Skill IDs',
		);
	}
	for (const [field, label] of [
		['auto_close', 'Auto Close'],
		['auto_pilot', 'Auto Pilot'],
	] as const) {
		if (!cyclicOrPlan && work[field] !== undefined)
			issue([field], `applies only to CYCLIC and PLAN jobs: remove ${label}`);
	}
	if (!cyclicOrPlan && work.interventions !== undefined) {
		issue(['interventions'], 'applies only to CYCLIC and PLAN jobs: remove Interventions');
	}
	if (cyclicOrPlan && !work.interventions?.length) {
		issue(
			['interventions'],
			`is required for a ${work.type} job: add at least one intervention under Interventions (or in Additional Fields → Interventions (JSON))`,
		);
	}
	if (work.type !== 'SPECIAL' && work.procedures !== undefined) {
		issue(['procedures'], 'applies only to SPECIAL jobs: remove Procedures');
	}
	if (work.type === 'CYCLIC' && work.recurrence?.FREQ === 'HOURLY') {
		if (work.calendar_id === undefined)
			issue(['calendar_id'], 'is required for a CYCLIC job repeating HOURLY: set Calendar ID');
		if (work.recurrence.INTERVAL === undefined) {
			issue(
				['recurrence', 'INTERVAL'],
				'is required for a CYCLIC job repeating HOURLY: set Interval (0 or more)',
			);
		}
	}
	const { DTSTART, UNTIL } = work.recurrence ?? {};
	if (DTSTART && UNTIL && timeOf(UNTIL) < timeOf(DTSTART)) {
		issue(['recurrence', 'UNTIL'], 'must not be before the start (DTSTART)');
	}
}

/** The body of POST /works, with every rule of the spec's table. `_type` is the API's fixed value `works`. */
export const workSchema = lazy(() =>
	workFields()
		.superRefine((work, context) =>
			checkWork(work, (path, message) => context.addIssue({ code: 'custom', path, message })),
		)
		.transform((work) => ({ _type: 'works', ...work })),
);

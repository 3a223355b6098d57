import { z } from 'zod/v3';

import { choices } from '../../../shared/options';
import { id } from '../../../shared/schemas';
import { idField } from '../../../shared/fields';
import type { QueryFilter } from '../../../shared/types';

/** The relations a work order list can include (`expanded`). */
export const FAILURE_RELATIONS = ['assignees', 'eventsPlanned'];

export const FAILURE_STATUSES = choices({
	WAITING_APPROVAL: 'Waiting Approval',
	WAITING_RESOLUTION: 'Waiting Resolution',
	IN_RESOLUTION: 'In Resolution',
	PAUSED: 'Paused',
	COMPLETED: 'Completed',
	ARCHIVED: 'Archived',
});

/** A filter on an ID: it starts empty, and an ID that is not a positive whole number is refused before sending. */
export const idFilter = <N extends string>(
	name: N,
	displayName: string,
	description: string,
): QueryFilter<N> => ({ property: idField(displayName, name, description), check: id });

/** The location filter of both lists: the spec's exact-match form, s_local_id. */
export const locationFilter = idFilter(
	's_local_id',
	'Location ID',
	'Only work orders of this location: its ID, a whole number (sent as s_local_id, the exact-match filter)',
);

/** A list of values sent joined by commas, each one of the allowed values. */
export const oneOfList = (values: readonly string[]) =>
	z
		.string()
		.refine(
			(list) => list.split(',').every((value) => values.includes(value)),
			`must list values among ${values.join(', ')}`,
		);

/** A date the service can read: ISO 8601 or YYYY-MM-DD HH:mm:ss. */
export const dateValue = () =>
	z
		.string()
		.refine(
			(value) => !Number.isNaN(Date.parse(value.replace(' ', 'T'))),
			'must be a date, such as 2026-05-01 or 2026-05-01T08:00:00',
		);

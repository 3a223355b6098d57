import { listOperation, relationOptions } from '../shared/properties';

export const FAILURE_RELATIONS = relationOptions(['assignees', 'eventsPlanned']);

export const getAll = listOperation('failure', 'getAll', '/failures', {
	expanded: FAILURE_RELATIONS,
});

import { buyOrder } from './buyOrder';
import { client } from './client';
import { contact } from './contact';
import { failure } from './failure';
import { legacyMaterial } from './legacyMaterial';
import { location } from './location';
import { material } from './material';
import { materialType } from './materialType';
import { quoteLine } from './quoteLine';
import { scheduledWork } from './scheduledWork';
import { sellOrderLine } from './sellOrderLine';
import { stockMovement } from './stockMovement';
import { stockTransaction } from './stockTransaction';
import { supplier } from './supplier';
import { byText } from './shared/properties';
import type { ResourceModule } from './types';
import { work } from './work';

const all: ResourceModule[] = [
	buyOrder,
	client,
	contact,
	failure,
	legacyMaterial,
	location,
	material,
	materialType,
	quoteLine,
	scheduledWork,
	sellOrderLine,
	stockMovement,
	stockTransaction,
	supplier,
	work,
];

/** Every resource of the node, keyed by the value of the Resource selector. */
export const resources: Record<string, ResourceModule> = Object.fromEntries(
	all.map((resource) => [resource.value, resource]),
);

/** The options of the Resource selector, by name. */
export const resourceOptions = all
	.map(({ displayName, value }) => ({ name: displayName, value }))
	.sort(byText('name'));

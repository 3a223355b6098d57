import { COLLECTIONS } from './api';
import type { SeedSizes } from './data';

export type Environment = 'production' | 'sandbox';

export interface SandboxOptions {
	port?: number;
	host?: string;
	seed?: Partial<SeedSizes>;
	rateLimit?: { limit: number; windowMs: number } | null;
	latencyMs?: number;
	quiet?: boolean;
	/**
	 * Checks every API request and answer against spec/openapi.yaml. Violations go to the request log
	 * (`violations` of an entry), to `violations()` and `GET /__sandbox/violations`, and, unless quiet, to
	 * the console.
	 */
	contract?: boolean;
	/**
	 * With `contract`, a query parameter the document does not list for the operation is a violation,
	 * and the request is refused with the spec's 400 naming it. With this option too, the request is
	 * answered as the live API answers it, the name ignored (it stays a violation): `npm run dev` sets it.
	 */
	lenientQuery?: boolean;
	/**
	 * Page-size caps per collection, as the live API has: a list answers at most this many records
	 * whatever `limit` asks, with a `links.next`. Keys are collection paths without the leading slash
	 * (see COLLECTIONS), for example `{ failures: 100, locations: 50 }`.
	 */
	pageCaps?: PageCaps;
	/**
	 * The secret the console adds to an n8n webhook URL pasted there (as `npm run dev`'s webhook
	 * credential holds it); SANDBOX_WEBHOOK_SECRET in `npm run sandbox`.
	 */
	webhookSecret?: string;
	/**
	 * The address of the n8n whose webhook URLs are pasted in the console (`npm run dev`'s editor), for
	 * its example of a URL; SANDBOX_N8N_URL in `npm run sandbox`. Unset, the example names no address.
	 */
	n8nUrl?: string;
	/** How long a webhook delivery may take, answer included: 10 seconds unless set. */
	deliveryTimeoutMs?: number;
	/** Bounds of the request log: 5000 requests and 16 MiB of logged text unless set. */
	requestLog?: { maxRequests?: number; maxBytes?: number };
}

export type PageCaps = Record<string, number>;

/** Reads page-size caps written as `failures=100,locations=50` (the SANDBOX_PAGE_CAPS variable). */
export function parsePageCaps(text: string): PageCaps {
	const caps: PageCaps = {};
	for (const part of text.split(',').map((p) => p.trim())) {
		if (!part) continue;
		const [name, value] = part.split('=').map((p) => p.trim());
		caps[name] = Number(value);
	}
	return checkPageCaps(caps);
}

/** Refuses a cap on something that is not a collection, or a cap that is not a positive whole number. */
export function checkPageCaps(caps: PageCaps): PageCaps {
	for (const [name, value] of Object.entries(caps)) {
		if (!COLLECTIONS.includes(name))
			throw new Error(`No collection "${name}" to cap: use one of ${COLLECTIONS.join(', ')}`);
		if (!Number.isInteger(value) || value < 1)
			throw new Error(`The page-size cap of ${name} must be a positive whole number`);
	}
	return caps;
}

/** Fixed, documented tokens: each environment has its own, and a read-only one. */
export const TOKENS: Record<Environment, { token: string; readOnlyToken: string }> = {
	production: { token: 'prod-token-0001-full-access', readOnlyToken: 'prod-token-0002-read-only' },
	sandbox: { token: 'sbx-token-0001-full-access', readOnlyToken: 'sbx-token-0002-read-only' },
};

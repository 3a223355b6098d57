import { API_TEXT } from '../../nodes/shared/errors/text';
import { apiError } from './scriptedServer';

/** A JSON string literal, escapes included. */
const QUOTE = /"(?:[^"\\]|\\.)*"/g;

/** A text without its JSON string literals: what no quote holds. */
export const outsideQuotes = (text: string): string => text.replace(QUOTE, '""');

/**
 * A message split into what the node says and the API text it quotes: `own` is everything before the
 * quoted section, `quotes` each JSON string of that section decoded, and `between` what the section
 * holds outside its quotes (labels and punctuation only, when the API's words are all quoted).
 */
export function partsOf(message: string): { own: string; quotes: string[]; between: string } {
	const at = message.indexOf(API_TEXT);
	const own = at < 0 ? message : message.slice(0, at);
	const section = at < 0 ? '' : message.slice(at + API_TEXT.length);
	const quotes: string[] = [];
	const between = section.replace(QUOTE, (literal) => {
		quotes.push(JSON.parse(literal) as string);
		return '""';
	});
	return { own, quotes, between };
}

/** Whether the quoted section holds nothing but quotes, the node's labels and punctuation. */
export const onlyLabelsBetween = (between: string): boolean =>
	/^[\s"":;]*$/.test(
		between.replace(/\b(message|field|and \d+ more fields \(see the error's details\))\b/g, ''),
	);

/** Markup an API's text or a record may carry: a link without quotes, and an open <details>. */
export const LINK =
	'<a href=https://evil.example/relogin>Your n8n session expired: click to sign in again</a>';
export const DETAILS =
	'<details open><summary>Paste your API token at evil.example</summary></details>';

/** A 400 whose message, field name, problem and dev_message all carry markup. */
export const markup400 = () =>
	apiError(400, {
		message: `${LINK} ${DETAILS}`,
		properties: { '<mark>code</mark>': [`<b>taken</b> ${LINK}`] },
		dev_message: LINK,
	});

/** The forms an echo can give the token in: as is, URL-encoded, JSON-escaped. */
const tokenForms = (token: string): string[] => [
	token,
	encodeURIComponent(token),
	JSON.stringify(token).slice(1, -1),
];

/**
 * Removes the token from any text, in any of its forms and any letter case, so that no error or log
 * shows it, even when the API echoes it.
 */
export const redact = (text: string, token: string): string => {
	if (!token) return text;
	const forms = tokenForms(token).map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
	return text.replace(new RegExp(forms.join('|'), 'gi'), '***');
};

export const redactDeep = <T>(value: T, token: string): T =>
	value === undefined || !token ? value : (JSON.parse(redact(JSON.stringify(value), token)) as T);

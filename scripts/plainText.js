/**
 * Text read from outside (n8n's database, the sandbox, a file, another process) made safe to print in a
 * terminal: every control character (C0, DEL, C1: escape sequences, bells, carriage returns, line
 * breaks), format character (bidirectional overrides, zero-width ones) and line or paragraph separator
 * is written as its `\u` escape, so it shows instead of acting, and the text stays on one line.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `text` as plain text for a terminal (see above). */
const plainText = (text) =>
	String(text).replace(UNPRINTABLE, (char) => {
		const code = char.codePointAt(0).toString(16);
		return code.length > 4 ? `\\u{${code}}` : `\\u${code.padStart(4, '0')}`;
	});

/**
 * A line of a program's output as plain text: for a line of its JSON log (n8n's, with
 * N8N_LOG_FORMAT=json), the message, whose own line breaks start lines indented by two spaces, so that
 * no line of it (a workflow's name with a line break, say) can pass for a line of the tool's own. An
 * error or a warning says so, and what was logged with it (the error, its stack) follows on one
 * indented line, so that a failed start's last lines say why.
 */
function plainLogLine(line) {
	try {
		const { level, message, metadata } = JSON.parse(line);
		if (typeof message === 'string') {
			const lines = message.trim().split('\n');
			if (level === 'error' || level === 'warn') {
				lines[0] = `${level}: ${lines[0]}`;
				if (metadata && Object.keys(metadata).length) lines.push(JSON.stringify(metadata));
			}
			return lines.map(plainText).join('\n  ');
		}
	} catch {
		// Not a line of the log.
	}
	return plainText(line);
}

module.exports = { plainLogLine, plainText };

import { plainLogLine, plainText } from '../../scripts/plainText';

/**
 * What the dev tools print of text they read (n8n's database, the sandbox, a file, a command line):
 * plain text on one line, whatever steers a terminal shown as its escape instead of acting.
 */
describe('plain text for a terminal', () => {
	it.each([
		['a title-setting escape sequence', '\u001b]0;owned\u0007', '\\u001b]0;owned\\u0007'],
		['an erase-line', '\u001b[2K', '\\u001b[2K'],
		[
			'a line break and a forged line',
			'x\n[dev] editor: http://evil.example',
			'x\\u000a[dev] editor: http://evil.example',
		],
		['a carriage return', 'x\rover', 'x\\u000dover'],
		['a tab and DEL', '\t\u007f', '\\u0009\\u007f'],
		['a C1 control sequence introducer', '\u009b2J', '\\u009b2J'],
		['a bidirectional override', 'abc\u202edef', 'abc\\u202edef'],
		['a zero-width space', 'a\u200bb', 'a\\u200bb'],
		['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
		['a format character beyond the BMP', 'a\u{e0041}b', 'a\\u{e0041}b'],
	])('shows %s as its escape', (_what, text, shown) => {
		expect(plainText(text)).toBe(shown);
	});

	it('leaves printable text as it is, in any script, and prints what is not a string', () => {
		const text = 'Example: "Réparations" 中文 😀 \\u001b (original)';
		expect(plainText(text)).toBe(text);
		expect(plainText(42)).toBe('42');
		expect(plainText(undefined)).toBe('undefined');
	});
});

describe("a line of a program's output, as the dev tools print it", () => {
	const forged = 'My alerts\u001b]0;owned\u0007\n[dev] editor: http://evil.example:5678';

	it('is the message of a line of its JSON log, each line of it plain, the lines after the first indented', () => {
		const line = JSON.stringify({
			level: 'error',
			message: `Activation of workflow "${forged}" failed\n`,
			metadata: { workflowId: 'x' },
		});
		expect(plainLogLine(line)).toBe(
			'error: Activation of workflow "My alerts\\u001b]0;owned\\u0007\n  [dev] editor: http://evil.example:5678" failed\n  {"workflowId":"x"}',
		);
		expect(
			plainLogLine(line)
				.split('\n')
				.filter((text) => text.startsWith('[dev]')),
		).toEqual([]);
	});

	it("says an error's level and what was logged with it, on one indented line, and an info line's message only", () => {
		const error = JSON.stringify({
			level: 'error',
			message: 'n8n could not start',
			metadata: {
				error: { message: 'Port 5678 is in use', stack: 'Error: Port 5678\n    at listen' },
			},
		});
		expect(plainLogLine(error)).toBe(
			'error: n8n could not start\n  {"error":{"message":"Port 5678 is in use","stack":"Error: Port 5678\\n    at listen"}}',
		);
		expect(
			plainLogLine(
				JSON.stringify({
					level: 'info',
					message: 'Editor is now accessible',
					metadata: { file: 'x' },
				}),
			),
		).toBe('Editor is now accessible');
	});

	it('is the line itself, plain, when it is no line of the log', () => {
		expect(plainLogLine('Version: 2.41.1 \u001b[2K')).toBe('Version: 2.41.1 \\u001b[2K');
		expect(plainLogLine('null')).toBe('null');
		expect(plainLogLine('{"message": 5}\u0007')).toBe('{"message": 5}\\u0007');
		expect(plainLogLine('{"message": 5}')).toBe('{"message": 5}');
	});
});

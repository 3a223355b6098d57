import type { LoggedRequest } from '../../sandbox';
import type { OperationCase } from '../cases/operations';
import { outputOf, type ExecutionResult } from './n8n';
import { caseNodeName } from './workflows';

/** JSON with sorted keys, to compare bodies whatever order their fields were written in. */
const canonical = (value: unknown): string =>
	JSON.stringify(value, (_key, entry: unknown) =>
		entry && typeof entry === 'object' && !Array.isArray(entry)
			? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => a.localeCompare(b)))
			: entry,
	);

/** One operation's node ran without error, sent the request the case expects, and output what it checks. */
export async function expectCaseRan(
	run: ExecutionResult,
	logged: LoggedRequest[],
	testCase: OperationCase,
): Promise<void> {
	const name = caseNodeName(testCase);
	const nodeRun = run.data.resultData.runData[name]?.[0];
	expect(nodeRun).toBeDefined();
	expect(nodeRun?.error).toBeUndefined();
	const match = logged.filter(
		(r) =>
			r.method === testCase.request.method &&
			r.path === testCase.request.path &&
			(testCase.request.body === undefined ||
				canonical(r.body) === canonical(testCase.request.body)),
	);
	expect(match.length).toBeGreaterThanOrEqual(1);
	expect(match[0].status).toBeLessThan(300);
	if (testCase.request.query) expect(match[0].query).toEqual(testCase.request.query);
	await testCase.check(outputOf(run, name) as never);
}

import { spawn } from 'node:child_process';

import { killSame, named, processInfo, treeOfChild } from './devProcesses';

/**
 * The dev tool tests' clean-up (test/tooling/devProcesses.ts) kills a process only while it is the one
 * it named: a pid another process has since (pid_max is small) is passed over.
 */
describe('the dev tool tests’ clean-up', () => {
	it('kills a named process, and passes over its pid once another start time goes with it', async () => {
		const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
			stdio: 'ignore',
		});
		const exited = new Promise((resolve) => child.once('exit', resolve));
		try {
			const [self] = named([child.pid!]);
			expect(self.pid).toBe(child.pid);
			killSame([{ ...self, start: '1' }]);
			expect(processInfo(child.pid!)).toBeDefined();
			expect(treeOfChild(child)).toEqual([self]);
			killSame([self]);
			await exited;
			expect(child.signalCode).toBe('SIGKILL');
			expect(treeOfChild(child)).toEqual([]);
		} finally {
			child.kill('SIGKILL');
		}
	});
});

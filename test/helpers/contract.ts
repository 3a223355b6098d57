import { Contract, type ContractViolation } from '../../sandbox/contract';

/**
 * The names of spec/openapi.yaml's webhook events, in the document's order: what the tests expect of
 * the trigger and the sandbox, read from the document rather than from the table generated from it.
 */
export const specEventNames = (): string[] =>
	Object.keys(Contract.shared().document.webhooks as Record<string, unknown>);

/** Something that checks requests (and maybe answers) against spec/openapi.yaml: the sandbox or a scripted server. */
export interface ContractChecked {
	violations(): ContractViolation[];
	clearViolations(): void;
}

/**
 * Registers an afterEach that fails the test when its server (the sandbox started with `contract: true`, or
 * a ScriptedServer with `contract`) saw a request or an answer of the given kinds that breaks
 * spec/openapi.yaml, then clears the server's list.
 */
export function keepsContract(
	server: () => ContractChecked | undefined,
	kinds: Array<ContractViolation['kind']> = ['request', 'response'],
): void {
	afterEach(() => {
		const checked = server();
		if (!checked) return;
		const found = checked.violations().filter((v) => kinds.includes(v.kind));
		checked.clearViolations();
		expect(found).toEqual([]);
	});
}

// jest's own node environment (`testEnvironment: 'node'`), which comes with jest.
const { TestEnvironment } = require('jest-environment-node');

const ordinary = Function.prototype[Symbol.hasInstance];
const isError = (value) => Object.prototype.toString.call(value) === '[object Error]';

/**
 * Makes `value instanceof ErrorClass` true for an error of any realm, as it is in n8n, where one realm
 * holds everything. Only for the class itself: a subclass (NodeApiError, TypeError) inherits this check
 * and keeps the ordinary one.
 */
function acceptErrorsOfAnyRealm(ErrorClass) {
	if (Object.prototype.hasOwnProperty.call(ErrorClass, Symbol.hasInstance)) return;
	Object.defineProperty(ErrorClass, Symbol.hasInstance, {
		value(value) {
			return ordinary.call(this, value) || (this === ErrorClass && isError(value));
		},
	});
}

/**
 * n8n runs the regular expression of a parameter's validation (the ID mode of a record locator) in a
 * vm with a 250 ms wall-clock limit, which a machine at load average 10 exceeded for a trivial pattern
 * ("Regular expression execution timed out"). The package's descriptions now hold no such check
 * (test/nodes/actions/locators.test.ts); the recorded 0.1.0 build, which the surface test runs, still
 * does. Here they run in Node's own engine, without that time-out: its pattern is fixed and linear.
 */
const NATIVE_REGEX = {
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) =>
		input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags = '') => [
		...input.matchAll(new RegExp(pattern, flags.includes('g') ? flags : `${flags}g`)),
	],
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
};

/**
 * The in-process suites' environment. n8n-workflow and n8n-core (about 2,000 modules) are loaded once
 * per jest worker by Node itself, not once per test file by jest, and every test file of the worker
 * gets that copy: jest.config.js maps their names to test/setup/n8n/. Each file still loads the
 * package's own code afresh, in the file's realm, as jest does; both realms' `Error` accept the other's
 * errors, so that `instanceof Error` in n8n-workflow and in the package answers as it does in n8n.
 */
class SharedN8nEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		// n8n's logger, which reads its level when n8n-core loads, stays silent unless the run sets one
		// (n8n's own setting): `N8N_LOG_LEVEL=debug npm run test:fast` shows its logs.
		process.env.N8N_LOG_LEVEL ??= 'silent';
		acceptErrorsOfAnyRealm(Error);
		acceptErrorsOfAnyRealm(this.global.Error);
		const workflow = require('n8n-workflow');
		workflow.setSafeRegexEngine(NATIVE_REGEX);
		// n8n-core's own copies of n8n's container and settings, for a test that switches one on.
		const ofCore = (name) =>
			require(require.resolve(name, { paths: [require.resolve('n8n-core')] }));
		this.global.__n8n = {
			workflow,
			core: require('n8n-core'),
			di: ofCore('@n8n/di'),
			config: ofCore('@n8n/config'),
		};
	}
}

module.exports = SharedN8nEnvironment;

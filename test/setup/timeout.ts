/**
 * Sets the test time-out of the project, given in jest.config.js as `globals.testTimeout`: jest itself
 * takes only one time-out for a whole run.
 */
jest.setTimeout((globalThis as { testTimeout?: number }).testTimeout ?? 5000);

export {};

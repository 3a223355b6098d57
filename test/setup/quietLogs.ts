/**
 * n8n's logger stays silent in the in-process suites, so its output shows only test results. n8n's own
 * setting turns it back on for a run: `N8N_LOG_LEVEL=debug npm run test:fast`.
 */
process.env.N8N_LOG_LEVEL ??= 'silent';

export {};

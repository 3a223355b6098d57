module.exports = globalThis.__n8n.config;

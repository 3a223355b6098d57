module.exports = globalThis.__n8n.di;

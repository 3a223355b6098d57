/** Reads the dev folder's random webhook path and secret, making them on its first run. */
export function devWebhook(folder: string): { id: string; secret: string };

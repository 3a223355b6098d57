import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message of the OpenAI chat completions API, as far as the tests read it. */
export interface ChatMessage {
	role: string;
	content?: string | null | Array<{ type: string; text?: string }>;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	stream?: boolean;
	tools?: Array<{
		function: { name: string; description?: string; parameters?: Record<string, unknown> };
	}>;
}

/** One turn of the model: a tool call (a tool chosen by a part of its name) or its final answer. */
export type Turn =
	{ tool: string; args: Record<string, unknown> } | { answer: (request: ChatRequest) => string };

/** The text of a message's content. */
export const textOf = (message: ChatMessage): string =>
	typeof message.content === 'string'
		? message.content
		: (message.content ?? []).map((part) => part.text ?? '').join('');

/**
 * A scripted, OpenAI-compatible chat model on loopback: `POST /v1/chat/completions` answers turn n of
 * the script, n being the number of assistant messages already in the conversation. Deterministic, no
 * network. Every request is kept, so a test can read what the model was given.
 */
export class ScriptedModel {
	readonly requests: ChatRequest[] = [];

	private server?: Server;

	constructor(private readonly script: Turn[]) {}

	get url(): string {
		return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/v1`;
	}

	/** An OpenAI credential pointing at this model, to import into n8n under the given id and name. */
	credential(ref: { id: string; name: string }) {
		return {
			...ref,
			type: 'openAiApi',
			data: { apiKey: 'sk-scripted-not-secret', url: this.url },
		};
	}

	async start(): Promise<void> {
		this.server = createServer((request, response) => {
			let body = '';
			request.on('data', (chunk: Buffer) => (body += chunk.toString()));
			request.on('end', () => {
				if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
					response.writeHead(404, { 'Content-Type': 'application/json' });
					response.end(JSON.stringify({ error: { message: `No route ${request.url}` } }));
					return;
				}
				const chat = JSON.parse(body) as ChatRequest;
				this.requests.push(chat);
				const message = this.turn(chat);
				const finish = message.tool_calls ? 'tool_calls' : 'stop';
				if (chat.stream) {
					response.writeHead(200, { 'Content-Type': 'text/event-stream' });
					const chunk = (delta: unknown, finishReason: string | null) =>
						`data: ${JSON.stringify({ id: 'chatcmpl-scripted', object: 'chat.completion.chunk', created: 0, model: chat.model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
					const delta = message.tool_calls
						? {
								role: 'assistant',
								tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })),
							}
						: { role: 'assistant', content: message.content };
					response.end(`${chunk(delta, null)}${chunk({}, finish)}data: [DONE]\n\n`);
					return;
				}
				response.writeHead(200, { 'Content-Type': 'application/json' });
				response.end(
					JSON.stringify({
						id: 'chatcmpl-scripted',
						object: 'chat.completion',
						created: 0,
						model: chat.model,
						choices: [{ index: 0, message, finish_reason: finish }],
						usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
					}),
				);
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
	}

	private turn(chat: ChatRequest): ChatMessage & { role: 'assistant' } {
		const index = chat.messages.filter((message) => message.role === 'assistant').length;
		const step = this.script[Math.min(index, this.script.length - 1)];
		if ('answer' in step) return { role: 'assistant', content: step.answer(chat) };
		const tool = (chat.tools ?? []).find((t) => t.function.name.includes(step.tool));
		if (!tool) {
			return {
				role: 'assistant',
				content: `No tool named like ${step.tool} among ${(chat.tools ?? []).map((t) => t.function.name).join(', ')}`,
			};
		}
		return {
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: `call_${index}`,
					type: 'function',
					function: { name: tool.function.name, arguments: JSON.stringify(step.args) },
				} as never,
			],
		};
	}

	/** The tool results the model was given, in order, from the last request (the whole conversation). */
	toolResults(): string[] {
		const last = this.requests.at(-1);
		return (last?.messages ?? []).filter((m) => m.role === 'tool').map(textOf);
	}

	async stop(): Promise<void> {
		await new Promise((resolve) => this.server?.close(resolve));
	}
}

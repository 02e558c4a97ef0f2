/** Startup error and warning messages, in one place. @internal */
export const DUPLICATE_TOOL_NAME = (name: string, first: string, second: string) =>
  `Tool name "${name}" is registered twice (${first} and ${second}). Tool names must be unique: pass a distinct name to @Tool({ name }) or ToolRegistrar.register({ name }).`;

export const INVALID_TOOL_NAME = (name: string, where: string) =>
  `Tool name "${name}" on ${where} is not portable: use 1-64 characters from A-Z, a-z, 0-9, "_" and "-" (the OpenAI, Anthropic and MCP rules all accept these).`;

export const MISSING_TOOL_DESCRIPTION = (name: string, where: string) =>
  `Tool "${name}" on ${where} has no description: models choose tools by their descriptions, so a description is required (@Tool({ description }), ToolRegistrar.register({ description })).`;

export const ARGS_CLASS_WITHOUT_RULES = (name: string, argsClass: string) =>
  `Tool "${name}": its arguments class ${argsClass} has no class-validator decorator, so every call would fail validation. Decorate its properties (@IsString(), @IsOptional(), ...), or type the arguments as an interface to take them unchecked.`;

export const REQUEST_SCOPED_TOOL = (where: string) =>
  `${where} is request-scoped or transient (or depends on such a provider), but tools are built once at bootstrap and called outside any HTTP request. Make the provider a singleton and pass per-call data through @ToolCall() metadata instead.`;

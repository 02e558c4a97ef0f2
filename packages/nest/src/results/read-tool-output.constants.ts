/** The name of the built-in tool that reads the rest of a cut output. @publicApi */
export const READ_TOOL_OUTPUT = 'read_tool_output';

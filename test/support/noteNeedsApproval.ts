import { approvalPolicy } from '../../src/agent/tools/approvalPolicy.js';
import { calculatorTool } from '../../src/agent/tools/calculatorTool.js';
import { noteTool } from '../../src/agent/tools/noteTool.js';

/** The agent's tools for the approval tests: `note`, which needs a person's approval, and `calculator`, which does not. */
export const NOTE_NEEDS_APPROVAL = { tools: [noteTool, calculatorTool], requireApproval: approvalPolicy(['note']) };

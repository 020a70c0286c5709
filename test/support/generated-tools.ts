/**
 * An app with 200 generated tools (20 kinds of record × 10 actions), each described with
 * everyday words for what it does, and 50 scripted queries that use those words but never a
 * word of the tool's name: what a model types when it knows the task, not the tool.
 */
import { McpModule, McpService, Tool } from "frugal-mcp";
import { z } from "zod";

/** Record kinds: the name's word, and the everyday words of its description. */
const ENTITIES = [
  ["invoice", "bill sent to a client for payment"],
  ["customer", "client account with contact details"],
  ["ticket", "support request raised by a user"],
  ["order", "purchase placed in the shop"],
  ["shipment", "parcel delivery on its way by courier"],
  ["product", "catalog item for sale with a price"],
  ["warehouse", "stock location holding inventory"],
  ["employee", "staff member on the payroll"],
  ["meeting", "calendar event with attendees"],
  ["repository", "code repo under version control"],
  ["pull_request", "proposed code review before merging a branch"],
  ["issue", "bug report or feature idea in the tracker"],
  ["deployment", "release rolled out to servers"],
  ["alert", "incident notification from monitoring"],
  ["dashboard", "board of charts and graphs"],
  ["report", "periodic summary document with figures"],
  ["subscription", "recurring plan billed monthly"],
  ["coupon", "discount code for checkout"],
  ["refund", "money given back after a return"],
  ["document", "file stored in the shared drive"],
] as const;

/** Actions: the name's word, how the description says it, and its parameters. */
const ACTIONS = [
  ["list", "Browse every", ["page", "sort"]],
  ["get", "Look up the full details of one", ["id"]],
  ["create", "Add a brand new", ["fields"]],
  ["update", "Edit or modify the fields of an existing", ["id", "changes"]],
  ["delete", "Permanently erase a", ["id", "confirm"]],
  ["archive", "Shelve (hide from active views) an old", ["id", "reason"]],
  ["export", "Download as a spreadsheet CSV file every", ["format", "since"]],
  ["search", "Find by free text each", ["text", "limit"]],
  ["assign", "Hand over to a colleague as owner a", ["id", "assignee"]],
  ["approve", "Sign off and accept a pending", ["id", "approver"]],
] as const;

/** The tool of one action on one kind: `approve_invoice`. */
export const toolName = (action: string, entity: string) => `${action}_${entity}`;

@McpService()
export class GeneratedToolsService {}

for (const [entity, words] of ENTITIES) {
  for (const [action, says, parameters] of ACTIONS) {
    const property = `${action}_${entity}`;
    Object.defineProperty(GeneratedToolsService.prototype, property, {
      value: (input: unknown) => ({ tool: property, input }),
      writable: true,
      configurable: true,
    });
    const descriptor = Object.getOwnPropertyDescriptor(GeneratedToolsService.prototype, property);
    Tool({
      name: toolName(action, entity),
      description: `${says} ${words}.`,
      input: Object.fromEntries(parameters.map((p) => [p, z.string().optional()])),
    })(GeneratedToolsService.prototype, property, descriptor as PropertyDescriptor);
  }
}

@McpModule({ services: [GeneratedToolsService] })
export class GeneratedToolsModule {}

/** 50 tasks, each with the tool that does it; no query holds a word of its tool's name. */
export const QUERIES: ReadonlyArray<readonly [query: string, tool: string]> = [
  ["browse every bill sent to clients", "list_invoice"],
  ["look up the details of one client account", "get_customer"],
  ["add a brand new support request", "create_ticket"],
  ["modify a purchase placed in the shop", "update_order"],
  ["permanently erase a parcel delivery", "delete_shipment"],
  ["shelve an old catalog item", "archive_product"],
  ["download a spreadsheet of every stock location", "export_warehouse"],
  ["find staff members by free text", "search_employee"],
  ["hand a calendar event over to a colleague", "assign_meeting"],
  ["sign off a pending code repo", "approve_repository"],
  ["browse proposed code reviews", "list_pull_request"],
  ["details of one bug report in the tracker", "get_issue"],
  ["add a brand new release to servers", "create_deployment"],
  ["edit an incident notification from monitoring", "update_alert"],
  ["permanently erase a board of charts", "delete_dashboard"],
  ["shelve a periodic summary with figures", "archive_report"],
  ["csv download of recurring monthly plans", "export_subscription"],
  ["find discount codes for checkout by text", "search_coupon"],
  ["hand money given back after a return to a colleague", "assign_refund"],
  ["accept a pending file in the shared drive", "approve_document"],
  ["erase a bill for payment permanently", "delete_invoice"],
  ["shelve a client account", "archive_customer"],
  ["spreadsheet of all support requests", "export_ticket"],
  ["find shop purchases by free text", "search_order"],
  ["give a courier parcel to a colleague as owner", "assign_shipment"],
  ["sign off a catalog item price", "approve_product"],
  ["browse all stock locations holding inventory", "list_warehouse"],
  ["look up one staff member on the payroll", "get_employee"],
  ["new calendar event with attendees", "create_meeting"],
  ["modify the fields of a code repo", "update_repository"],
  ["erase a proposed code review before merging", "delete_pull_request"],
  ["hide an old feature idea from active views", "archive_issue"],
  ["download every release rolled out as csv", "export_deployment"],
  ["find monitoring incident notifications", "search_alert"],
  ["hand a board of graphs to a colleague", "assign_dashboard"],
  ["accept a pending periodic summary document", "approve_report"],
  ["browse recurring plans billed monthly", "list_subscription"],
  ["look up a discount code", "get_coupon"],
  ["add money given back after a return", "create_refund"],
  ["edit a file stored in the shared drive", "update_document"],
  ["accept a pending bill from a client", "approve_invoice"],
  ["every client account as a spreadsheet", "export_customer"],
  ["hand a support request over to a colleague", "assign_ticket"],
  ["browse shop purchases", "list_order"],
  ["look up a parcel on its way by courier", "get_shipment"],
  ["add a brand new catalog item for sale", "create_product"],
  ["modify a stock location", "update_warehouse"],
  ["shelve a staff member", "archive_employee"],
  ["free text find of calendar events", "search_meeting"],
  ["permanently erase a file in the shared drive", "delete_document"],
];

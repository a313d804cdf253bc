// Every workflow the platform's workers run. Workflow code imports only @temporalio/workflow,
// domain/ types and `import type` of activities.
export {};

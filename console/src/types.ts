// The platform's payloads as the console sees them: the SDK's camelCase schemas, generated from
// the API's OpenAPI document (sdk/src/generated/openapi.ts), so the console cannot drift from it.
import type { Schema, Task as SdkTask, CrossScanWallet as SdkCrossScanWallet } from '../../sdk/src';

export type Role = 'admin' | 'analyst' | 'researcher' | 'reviewer';
export type Me = Schema<'Me'>;
export type InvestigationSummary = Schema<'InvestigationSummary'>;
export type InvestigationDetail = Schema<'InvestigationDetail'>;
export type ScanWallet = InvestigationDetail['wallets'][number];
export type Task = SdkTask;
export type CrossScanWallet = SdkCrossScanWallet;
export type Playbook = Schema<'Playbook'>;
export type Intake = Schema<'IntakeSummary'>;
export type IntakeDetail = Schema<'Intake'>;
export type Case = Schema<'Case'>;
export type CaseDetail = Schema<'CaseDetail'>;
export type Review = Schema<'Review'>;
export type Schedule = Schema<'ReportSchedule'>;
export type ReportTemplate = Schema<'ReportTemplate'>;
export type ReviewWithCase = Schema<'ReviewWithCase'>;
export type User = Schema<'User'>;
export type ApiKey = Schema<'ApiKey'>;
export type CreatedApiKey = Schema<'CreatedApiKey'>;
export type AuditEvent = Schema<'AuditEvent'>;

/**
 * detections/rule-file: rules as YAML files (docs/interface.md 2.5), pure — definition model, checked
 * reader, canonical printer, API conversions, JSON Schema, which files of a repository (or its zip)
 * are rules, and what a rule test needs. Imports core, domain, query, store and the detections model.
 */
export { datasetFormats, definitionDefaults, type DatasetFormat, type RuleDefinition, type RuleTestDefinition } from './rule-definition.js';
export { readRuleFile, type RuleFileCheck, type RuleFileOptions } from './read-rule-file.js';
export { formatFileProblem } from './file-problems.js';
export { printRuleFile, type PrintOptions } from './print-rule-file.js';
export { apiFieldsOf, definitionOfApiFields, ruleInputOf, type RuleApiFields } from './rule-conversion.js';
export { ruleFileSchema, ruleFileSchemaPath } from './rule-file-schema.js';
export { readDataset, testEventTimeFields, testSourceTypeFields, defaultTestSourceType, maxTestEvents, type DatasetEvent, type DatasetProblem } from './rule-test-dataset.js';
export { classifyRepositoryFile, looksLikeRuleFile, type RepositoryFileKind } from './classify-repository-file.js';
export { defaultArchiveLimits, readRepositoryArchive, type ArchiveFile, type ArchiveLimits, type RepositoryArchive } from './repository-archive.js';
export { testWindow, testIndexes, testIndexesOf, testIndexId, type TestWindow } from './rule-test-window.js';

/**
 * detections/rule-file: rules as YAML files (docs/interface.md 2.5, detections.md 3.3 and E14-E15), pure
 * and without I/O — the definition model, the reader that checks a file and points at each
 * problem's line and column, the canonical printer, the conversions to and from the API object,
 * the JSON Schema, which files of a repository are rules, and what a rule test needs (its
 * dataset's events, its window, its indexes).
 */
export { datasetFormats, definitionDefaults, type DatasetFormat, type RuleDefinition, type RuleTestDefinition } from './rule-definition.js';
export { readRuleFile, type RuleFileCheck, type RuleFileOptions } from './read-rule-file.js';
export { formatFileProblem } from './file-problems.js';
export { printRuleFile, type PrintOptions } from './print-rule-file.js';
export { apiFieldsOf, definitionOfApiFields, ruleInputOf, type RuleApiFields } from './rule-conversion.js';
export { ruleFileSchema, ruleFileSchemaPath } from './rule-file-schema.js';
export { readDataset, testEventTimeFields, testSourceTypeFields, defaultTestSourceType, maxTestEvents, type DatasetEvent, type DatasetProblem } from './rule-test-dataset.js';
export { classifyRepositoryFile, looksLikeRuleFile, type RepositoryFileKind } from './classify-repository-file.js';
export { testWindow, testIndexes, testIndexesOf, testIndexId, type TestWindow } from './rule-test-window.js';

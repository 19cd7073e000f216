import type { FieldPolicy, FieldReadFunction, TypePolicies, TypePolicy } from '@apollo/client/cache';
export type AdoptionPointKeySpecifier = ('cumulativeModels' | 'end' | 'models' | 'newMethods' | 'period' | 'start' | AdoptionPointKeySpecifier)[];
export type AdoptionPointFieldPolicy = {
	cumulativeModels?: FieldPolicy<any> | FieldReadFunction<any>,
	end?: FieldPolicy<any> | FieldReadFunction<any>,
	models?: FieldPolicy<any> | FieldReadFunction<any>,
	newMethods?: FieldPolicy<any> | FieldReadFunction<any>,
	period?: FieldPolicy<any> | FieldReadFunction<any>,
	start?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ChangeCountsKeySpecifier = ('added' | 'changed' | 'moved' | 'removed' | 'renamed' | 'strengthened' | 'total' | 'weakened' | ChangeCountsKeySpecifier)[];
export type ChangeCountsFieldPolicy = {
	added?: FieldPolicy<any> | FieldReadFunction<any>,
	changed?: FieldPolicy<any> | FieldReadFunction<any>,
	moved?: FieldPolicy<any> | FieldReadFunction<any>,
	removed?: FieldPolicy<any> | FieldReadFunction<any>,
	renamed?: FieldPolicy<any> | FieldReadFunction<any>,
	strengthened?: FieldPolicy<any> | FieldReadFunction<any>,
	total?: FieldPolicy<any> | FieldReadFunction<any>,
	weakened?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ChangeSummaryKeySpecifier = ('methods' | 'models' | 'nodes' | 'total' | 'treatments' | ChangeSummaryKeySpecifier)[];
export type ChangeSummaryFieldPolicy = {
	methods?: FieldPolicy<any> | FieldReadFunction<any>,
	models?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	total?: FieldPolicy<any> | FieldReadFunction<any>,
	treatments?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ChangesKeySpecifier = ('from' | 'isEmpty' | 'methods' | 'models' | 'nodes' | 'summary' | 'to' | 'treatments' | ChangesKeySpecifier)[];
export type ChangesFieldPolicy = {
	from?: FieldPolicy<any> | FieldReadFunction<any>,
	isEmpty?: FieldPolicy<any> | FieldReadFunction<any>,
	methods?: FieldPolicy<any> | FieldReadFunction<any>,
	models?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	summary?: FieldPolicy<any> | FieldReadFunction<any>,
	to?: FieldPolicy<any> | FieldReadFunction<any>,
	treatments?: FieldPolicy<any> | FieldReadFunction<any>
};
export type EntityKeySpecifier = ('id' | EntityKeySpecifier)[];
export type EntityFieldPolicy = {
	id?: FieldPolicy<any> | FieldReadFunction<any>
};
export type EvidenceKeySpecifier = ('id' | 'locator' | 'method' | 'model' | 'quote' | 'source' | 'strength' | EvidenceKeySpecifier)[];
export type EvidenceFieldPolicy = {
	id?: FieldPolicy<any> | FieldReadFunction<any>,
	locator?: FieldPolicy<any> | FieldReadFunction<any>,
	method?: FieldPolicy<any> | FieldReadFunction<any>,
	model?: FieldPolicy<any> | FieldReadFunction<any>,
	quote?: FieldPolicy<any> | FieldReadFunction<any>,
	source?: FieldPolicy<any> | FieldReadFunction<any>,
	strength?: FieldPolicy<any> | FieldReadFunction<any>
};
export type EvidenceConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | EvidenceConnectionKeySpecifier)[];
export type EvidenceConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type EvidenceEdgeKeySpecifier = ('cursor' | 'node' | EvidenceEdgeKeySpecifier)[];
export type EvidenceEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type FieldChangeKeySpecifier = ('field' | 'fromItems' | 'fromValue' | 'toItems' | 'toValue' | FieldChangeKeySpecifier)[];
export type FieldChangeFieldPolicy = {
	field?: FieldPolicy<any> | FieldReadFunction<any>,
	fromItems?: FieldPolicy<any> | FieldReadFunction<any>,
	fromValue?: FieldPolicy<any> | FieldReadFunction<any>,
	toItems?: FieldPolicy<any> | FieldReadFunction<any>,
	toValue?: FieldPolicy<any> | FieldReadFunction<any>
};
export type FormerNodeKeySpecifier = ('changedIn' | 'kind' | 'lastSeenIn' | 'name' | 'node' | 'path' | 'slug' | 'slugPath' | FormerNodeKeySpecifier)[];
export type FormerNodeFieldPolicy = {
	changedIn?: FieldPolicy<any> | FieldReadFunction<any>,
	kind?: FieldPolicy<any> | FieldReadFunction<any>,
	lastSeenIn?: FieldPolicy<any> | FieldReadFunction<any>,
	name?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>,
	path?: FieldPolicy<any> | FieldReadFunction<any>,
	slug?: FieldPolicy<any> | FieldReadFunction<any>,
	slugPath?: FieldPolicy<any> | FieldReadFunction<any>
};
export type FormerRecordKeySpecifier = ('lastSeenIn' | 'name' | 'path' | 'removedIn' | 'slug' | FormerRecordKeySpecifier)[];
export type FormerRecordFieldPolicy = {
	lastSeenIn?: FieldPolicy<any> | FieldReadFunction<any>,
	name?: FieldPolicy<any> | FieldReadFunction<any>,
	path?: FieldPolicy<any> | FieldReadFunction<any>,
	removedIn?: FieldPolicy<any> | FieldReadFunction<any>,
	slug?: FieldPolicy<any> | FieldReadFunction<any>
};
export type KnockOnKeySpecifier = ('methodCount' | 'methods' | 'nodeCount' | 'nodes' | 'treatmentCount' | 'treatments' | KnockOnKeySpecifier)[];
export type KnockOnFieldPolicy = {
	methodCount?: FieldPolicy<any> | FieldReadFunction<any>,
	methods?: FieldPolicy<any> | FieldReadFunction<any>,
	nodeCount?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	treatmentCount?: FieldPolicy<any> | FieldReadFunction<any>,
	treatments?: FieldPolicy<any> | FieldReadFunction<any>
};
export type MethodKeySpecifier = ('adoption' | 'aliases' | 'description' | 'evidence' | 'firstSeen' | 'firstTreatedBy' | 'history' | 'id' | 'modelCount' | 'name' | 'node' | 'slug' | 'strongest' | 'treatments' | 'treatmentsConnection' | 'undatedModels' | MethodKeySpecifier)[];
export type MethodFieldPolicy = {
	adoption?: FieldPolicy<any> | FieldReadFunction<any>,
	aliases?: FieldPolicy<any> | FieldReadFunction<any>,
	description?: FieldPolicy<any> | FieldReadFunction<any>,
	evidence?: FieldPolicy<any> | FieldReadFunction<any>,
	firstSeen?: FieldPolicy<any> | FieldReadFunction<any>,
	firstTreatedBy?: FieldPolicy<any> | FieldReadFunction<any>,
	history?: FieldPolicy<any> | FieldReadFunction<any>,
	id?: FieldPolicy<any> | FieldReadFunction<any>,
	modelCount?: FieldPolicy<any> | FieldReadFunction<any>,
	name?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>,
	slug?: FieldPolicy<any> | FieldReadFunction<any>,
	strongest?: FieldPolicy<any> | FieldReadFunction<any>,
	treatments?: FieldPolicy<any> | FieldReadFunction<any>,
	treatmentsConnection?: FieldPolicy<any> | FieldReadFunction<any>,
	undatedModels?: FieldPolicy<any> | FieldReadFunction<any>
};
export type MethodChangeKeySpecifier = ('fieldChanges' | 'fromName' | 'fromPath' | 'kind' | 'kinds' | 'knockOn' | 'method' | 'name' | 'release' | 'removedWith' | 'slug' | 'toName' | 'toPath' | MethodChangeKeySpecifier)[];
export type MethodChangeFieldPolicy = {
	fieldChanges?: FieldPolicy<any> | FieldReadFunction<any>,
	fromName?: FieldPolicy<any> | FieldReadFunction<any>,
	fromPath?: FieldPolicy<any> | FieldReadFunction<any>,
	kind?: FieldPolicy<any> | FieldReadFunction<any>,
	kinds?: FieldPolicy<any> | FieldReadFunction<any>,
	knockOn?: FieldPolicy<any> | FieldReadFunction<any>,
	method?: FieldPolicy<any> | FieldReadFunction<any>,
	name?: FieldPolicy<any> | FieldReadFunction<any>,
	release?: FieldPolicy<any> | FieldReadFunction<any>,
	removedWith?: FieldPolicy<any> | FieldReadFunction<any>,
	slug?: FieldPolicy<any> | FieldReadFunction<any>,
	toName?: FieldPolicy<any> | FieldReadFunction<any>,
	toPath?: FieldPolicy<any> | FieldReadFunction<any>
};
export type MethodChangeConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | MethodChangeConnectionKeySpecifier)[];
export type MethodChangeConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type MethodChangeEdgeKeySpecifier = ('cursor' | 'node' | MethodChangeEdgeKeySpecifier)[];
export type MethodChangeEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type MethodConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | MethodConnectionKeySpecifier)[];
export type MethodConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type MethodEdgeKeySpecifier = ('cursor' | 'node' | MethodEdgeKeySpecifier)[];
export type MethodEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type MethodTreatmentKeySpecifier = ('evidence' | 'evidenceConnection' | 'id' | 'method' | 'model' | 'strength' | MethodTreatmentKeySpecifier)[];
export type MethodTreatmentFieldPolicy = {
	evidence?: FieldPolicy<any> | FieldReadFunction<any>,
	evidenceConnection?: FieldPolicy<any> | FieldReadFunction<any>,
	id?: FieldPolicy<any> | FieldReadFunction<any>,
	method?: FieldPolicy<any> | FieldReadFunction<any>,
	model?: FieldPolicy<any> | FieldReadFunction<any>,
	strength?: FieldPolicy<any> | FieldReadFunction<any>
};
export type MethodTreatmentConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | MethodTreatmentConnectionKeySpecifier)[];
export type MethodTreatmentConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type MethodTreatmentEdgeKeySpecifier = ('cursor' | 'node' | MethodTreatmentEdgeKeySpecifier)[];
export type MethodTreatmentEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ModelKeySpecifier = ('branches' | 'branchesConnection' | 'evidence' | 'firstSeen' | 'history' | 'id' | 'name' | 'organization' | 'releaseDate' | 'slug' | 'sources' | 'sourcesConnection' | 'treatments' | ModelKeySpecifier)[];
export type ModelFieldPolicy = {
	branches?: FieldPolicy<any> | FieldReadFunction<any>,
	branchesConnection?: FieldPolicy<any> | FieldReadFunction<any>,
	evidence?: FieldPolicy<any> | FieldReadFunction<any>,
	firstSeen?: FieldPolicy<any> | FieldReadFunction<any>,
	history?: FieldPolicy<any> | FieldReadFunction<any>,
	id?: FieldPolicy<any> | FieldReadFunction<any>,
	name?: FieldPolicy<any> | FieldReadFunction<any>,
	organization?: FieldPolicy<any> | FieldReadFunction<any>,
	releaseDate?: FieldPolicy<any> | FieldReadFunction<any>,
	slug?: FieldPolicy<any> | FieldReadFunction<any>,
	sources?: FieldPolicy<any> | FieldReadFunction<any>,
	sourcesConnection?: FieldPolicy<any> | FieldReadFunction<any>,
	treatments?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ModelChangeKeySpecifier = ('fieldChanges' | 'fromName' | 'kind' | 'kinds' | 'knockOn' | 'model' | 'name' | 'release' | 'slug' | 'toName' | ModelChangeKeySpecifier)[];
export type ModelChangeFieldPolicy = {
	fieldChanges?: FieldPolicy<any> | FieldReadFunction<any>,
	fromName?: FieldPolicy<any> | FieldReadFunction<any>,
	kind?: FieldPolicy<any> | FieldReadFunction<any>,
	kinds?: FieldPolicy<any> | FieldReadFunction<any>,
	knockOn?: FieldPolicy<any> | FieldReadFunction<any>,
	model?: FieldPolicy<any> | FieldReadFunction<any>,
	name?: FieldPolicy<any> | FieldReadFunction<any>,
	release?: FieldPolicy<any> | FieldReadFunction<any>,
	slug?: FieldPolicy<any> | FieldReadFunction<any>,
	toName?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ModelChangeConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | ModelChangeConnectionKeySpecifier)[];
export type ModelChangeConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ModelChangeEdgeKeySpecifier = ('cursor' | 'node' | ModelChangeEdgeKeySpecifier)[];
export type ModelChangeEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ModelConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | ModelConnectionKeySpecifier)[];
export type ModelConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ModelEdgeKeySpecifier = ('cursor' | 'node' | ModelEdgeKeySpecifier)[];
export type ModelEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ModelTreatmentKeySpecifier = ('id' | 'methodCount' | 'methods' | 'methodsConnection' | 'model' | 'node' | 'strongest' | ModelTreatmentKeySpecifier)[];
export type ModelTreatmentFieldPolicy = {
	id?: FieldPolicy<any> | FieldReadFunction<any>,
	methodCount?: FieldPolicy<any> | FieldReadFunction<any>,
	methods?: FieldPolicy<any> | FieldReadFunction<any>,
	methodsConnection?: FieldPolicy<any> | FieldReadFunction<any>,
	model?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>,
	strongest?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ModelTreatmentConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | ModelTreatmentConnectionKeySpecifier)[];
export type ModelTreatmentConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ModelTreatmentEdgeKeySpecifier = ('cursor' | 'node' | ModelTreatmentEdgeKeySpecifier)[];
export type ModelTreatmentEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type NodeKeySpecifier = ('adoption' | 'ancestors' | 'byModel' | 'children' | 'childrenConnection' | 'counts' | 'descendants' | 'descendantsConnection' | 'description' | 'firstSeen' | 'history' | 'id' | 'level' | 'matchingAids' | 'methods' | 'name' | 'parent' | 'path' | 'slug' | 'slugPath' | 'undatedModels' | NodeKeySpecifier)[];
export type NodeFieldPolicy = {
	adoption?: FieldPolicy<any> | FieldReadFunction<any>,
	ancestors?: FieldPolicy<any> | FieldReadFunction<any>,
	byModel?: FieldPolicy<any> | FieldReadFunction<any>,
	children?: FieldPolicy<any> | FieldReadFunction<any>,
	childrenConnection?: FieldPolicy<any> | FieldReadFunction<any>,
	counts?: FieldPolicy<any> | FieldReadFunction<any>,
	descendants?: FieldPolicy<any> | FieldReadFunction<any>,
	descendantsConnection?: FieldPolicy<any> | FieldReadFunction<any>,
	description?: FieldPolicy<any> | FieldReadFunction<any>,
	firstSeen?: FieldPolicy<any> | FieldReadFunction<any>,
	history?: FieldPolicy<any> | FieldReadFunction<any>,
	id?: FieldPolicy<any> | FieldReadFunction<any>,
	level?: FieldPolicy<any> | FieldReadFunction<any>,
	matchingAids?: FieldPolicy<any> | FieldReadFunction<any>,
	methods?: FieldPolicy<any> | FieldReadFunction<any>,
	name?: FieldPolicy<any> | FieldReadFunction<any>,
	parent?: FieldPolicy<any> | FieldReadFunction<any>,
	path?: FieldPolicy<any> | FieldReadFunction<any>,
	slug?: FieldPolicy<any> | FieldReadFunction<any>,
	slugPath?: FieldPolicy<any> | FieldReadFunction<any>,
	undatedModels?: FieldPolicy<any> | FieldReadFunction<any>
};
export type NodeChangeKeySpecifier = ('fieldChanges' | 'fromName' | 'fromPath' | 'kind' | 'kinds' | 'knockOn' | 'name' | 'node' | 'release' | 'removedWith' | 'slug' | 'toName' | 'toPath' | NodeChangeKeySpecifier)[];
export type NodeChangeFieldPolicy = {
	fieldChanges?: FieldPolicy<any> | FieldReadFunction<any>,
	fromName?: FieldPolicy<any> | FieldReadFunction<any>,
	fromPath?: FieldPolicy<any> | FieldReadFunction<any>,
	kind?: FieldPolicy<any> | FieldReadFunction<any>,
	kinds?: FieldPolicy<any> | FieldReadFunction<any>,
	knockOn?: FieldPolicy<any> | FieldReadFunction<any>,
	name?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>,
	release?: FieldPolicy<any> | FieldReadFunction<any>,
	removedWith?: FieldPolicy<any> | FieldReadFunction<any>,
	slug?: FieldPolicy<any> | FieldReadFunction<any>,
	toName?: FieldPolicy<any> | FieldReadFunction<any>,
	toPath?: FieldPolicy<any> | FieldReadFunction<any>
};
export type NodeChangeConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | NodeChangeConnectionKeySpecifier)[];
export type NodeChangeConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type NodeChangeEdgeKeySpecifier = ('cursor' | 'node' | NodeChangeEdgeKeySpecifier)[];
export type NodeChangeEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type NodeConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | NodeConnectionKeySpecifier)[];
export type NodeConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type NodeCountsKeySpecifier = ('childCount' | 'descendantCount' | 'evidenceInBranch' | 'methodsByStrongest' | 'methodsFiledHere' | 'methodsInBranch' | 'modelsInBranch' | 'treatmentsByStrength' | NodeCountsKeySpecifier)[];
export type NodeCountsFieldPolicy = {
	childCount?: FieldPolicy<any> | FieldReadFunction<any>,
	descendantCount?: FieldPolicy<any> | FieldReadFunction<any>,
	evidenceInBranch?: FieldPolicy<any> | FieldReadFunction<any>,
	methodsByStrongest?: FieldPolicy<any> | FieldReadFunction<any>,
	methodsFiledHere?: FieldPolicy<any> | FieldReadFunction<any>,
	methodsInBranch?: FieldPolicy<any> | FieldReadFunction<any>,
	modelsInBranch?: FieldPolicy<any> | FieldReadFunction<any>,
	treatmentsByStrength?: FieldPolicy<any> | FieldReadFunction<any>
};
export type NodeEdgeKeySpecifier = ('cursor' | 'node' | NodeEdgeKeySpecifier)[];
export type NodeEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type OrganizationKeySpecifier = ('modelCount' | 'name' | OrganizationKeySpecifier)[];
export type OrganizationFieldPolicy = {
	modelCount?: FieldPolicy<any> | FieldReadFunction<any>,
	name?: FieldPolicy<any> | FieldReadFunction<any>
};
export type PageInfoKeySpecifier = ('endCursor' | 'hasNextPage' | 'hasPreviousPage' | 'startCursor' | PageInfoKeySpecifier)[];
export type PageInfoFieldPolicy = {
	endCursor?: FieldPolicy<any> | FieldReadFunction<any>,
	hasNextPage?: FieldPolicy<any> | FieldReadFunction<any>,
	hasPreviousPage?: FieldPolicy<any> | FieldReadFunction<any>,
	startCursor?: FieldPolicy<any> | FieldReadFunction<any>
};
export type QueryKeySpecifier = ('changes' | 'entities' | 'entity' | 'formerMethod' | 'formerModel' | 'formerNode' | 'method' | 'methods' | 'model' | 'models' | 'node' | 'organizations' | 'release' | 'releases' | 'roots' | 'search' | 'taxonomy' | QueryKeySpecifier)[];
export type QueryFieldPolicy = {
	changes?: FieldPolicy<any> | FieldReadFunction<any>,
	entities?: FieldPolicy<any> | FieldReadFunction<any>,
	entity?: FieldPolicy<any> | FieldReadFunction<any>,
	formerMethod?: FieldPolicy<any> | FieldReadFunction<any>,
	formerModel?: FieldPolicy<any> | FieldReadFunction<any>,
	formerNode?: FieldPolicy<any> | FieldReadFunction<any>,
	method?: FieldPolicy<any> | FieldReadFunction<any>,
	methods?: FieldPolicy<any> | FieldReadFunction<any>,
	model?: FieldPolicy<any> | FieldReadFunction<any>,
	models?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>,
	organizations?: FieldPolicy<any> | FieldReadFunction<any>,
	release?: FieldPolicy<any> | FieldReadFunction<any>,
	releases?: FieldPolicy<any> | FieldReadFunction<any>,
	roots?: FieldPolicy<any> | FieldReadFunction<any>,
	search?: FieldPolicy<any> | FieldReadFunction<any>,
	taxonomy?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ReleaseKeySpecifier = ('changes' | 'checksum' | 'id' | 'loadedAt' | 'note' | 'number' | 'totals' | 'version' | ReleaseKeySpecifier)[];
export type ReleaseFieldPolicy = {
	changes?: FieldPolicy<any> | FieldReadFunction<any>,
	checksum?: FieldPolicy<any> | FieldReadFunction<any>,
	id?: FieldPolicy<any> | FieldReadFunction<any>,
	loadedAt?: FieldPolicy<any> | FieldReadFunction<any>,
	note?: FieldPolicy<any> | FieldReadFunction<any>,
	number?: FieldPolicy<any> | FieldReadFunction<any>,
	totals?: FieldPolicy<any> | FieldReadFunction<any>,
	version?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ReleaseConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | ReleaseConnectionKeySpecifier)[];
export type ReleaseConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ReleaseEdgeKeySpecifier = ('cursor' | 'node' | ReleaseEdgeKeySpecifier)[];
export type ReleaseEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type ReleaseTotalsKeySpecifier = ('evidence' | 'methods' | 'models' | 'nodes' | 'sources' | ReleaseTotalsKeySpecifier)[];
export type ReleaseTotalsFieldPolicy = {
	evidence?: FieldPolicy<any> | FieldReadFunction<any>,
	methods?: FieldPolicy<any> | FieldReadFunction<any>,
	models?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	sources?: FieldPolicy<any> | FieldReadFunction<any>
};
export type SearchConnectionKeySpecifier = ('edges' | 'facets' | 'nodes' | 'pageInfo' | 'totalCount' | SearchConnectionKeySpecifier)[];
export type SearchConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	facets?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type SearchFacetKeySpecifier = ('count' | 'type' | SearchFacetKeySpecifier)[];
export type SearchFacetFieldPolicy = {
	count?: FieldPolicy<any> | FieldReadFunction<any>,
	type?: FieldPolicy<any> | FieldReadFunction<any>
};
export type SearchHitEdgeKeySpecifier = ('cursor' | 'matchedField' | 'node' | 'roles' | 'score' | 'snippet' | SearchHitEdgeKeySpecifier)[];
export type SearchHitEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	matchedField?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>,
	roles?: FieldPolicy<any> | FieldReadFunction<any>,
	score?: FieldPolicy<any> | FieldReadFunction<any>,
	snippet?: FieldPolicy<any> | FieldReadFunction<any>
};
export type SearchSnippetKeySpecifier = ('highlights' | 'text' | SearchSnippetKeySpecifier)[];
export type SearchSnippetFieldPolicy = {
	highlights?: FieldPolicy<any> | FieldReadFunction<any>,
	text?: FieldPolicy<any> | FieldReadFunction<any>
};
export type SourceKeySpecifier = ('id' | 'kind' | 'model' | 'name' | 'publishedOn' | 'slug' | 'title' | 'url' | SourceKeySpecifier)[];
export type SourceFieldPolicy = {
	id?: FieldPolicy<any> | FieldReadFunction<any>,
	kind?: FieldPolicy<any> | FieldReadFunction<any>,
	model?: FieldPolicy<any> | FieldReadFunction<any>,
	name?: FieldPolicy<any> | FieldReadFunction<any>,
	publishedOn?: FieldPolicy<any> | FieldReadFunction<any>,
	slug?: FieldPolicy<any> | FieldReadFunction<any>,
	title?: FieldPolicy<any> | FieldReadFunction<any>,
	url?: FieldPolicy<any> | FieldReadFunction<any>
};
export type SourceConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | SourceConnectionKeySpecifier)[];
export type SourceConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type SourceEdgeKeySpecifier = ('cursor' | 'node' | SourceEdgeKeySpecifier)[];
export type SourceEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type StrengthCountsKeySpecifier = ('core' | 'mentioned' | 'used' | StrengthCountsKeySpecifier)[];
export type StrengthCountsFieldPolicy = {
	core?: FieldPolicy<any> | FieldReadFunction<any>,
	mentioned?: FieldPolicy<any> | FieldReadFunction<any>,
	used?: FieldPolicy<any> | FieldReadFunction<any>
};
export type TaxonomySummaryKeySpecifier = ('checksum' | 'dataVersion' | 'depth' | 'evidenceCount' | 'loadedAt' | 'methodCount' | 'modelCount' | 'nodeCount' | 'rootCount' | 'sourceCount' | TaxonomySummaryKeySpecifier)[];
export type TaxonomySummaryFieldPolicy = {
	checksum?: FieldPolicy<any> | FieldReadFunction<any>,
	dataVersion?: FieldPolicy<any> | FieldReadFunction<any>,
	depth?: FieldPolicy<any> | FieldReadFunction<any>,
	evidenceCount?: FieldPolicy<any> | FieldReadFunction<any>,
	loadedAt?: FieldPolicy<any> | FieldReadFunction<any>,
	methodCount?: FieldPolicy<any> | FieldReadFunction<any>,
	modelCount?: FieldPolicy<any> | FieldReadFunction<any>,
	nodeCount?: FieldPolicy<any> | FieldReadFunction<any>,
	rootCount?: FieldPolicy<any> | FieldReadFunction<any>,
	sourceCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type TextRangeKeySpecifier = ('end' | 'start' | TextRangeKeySpecifier)[];
export type TextRangeFieldPolicy = {
	end?: FieldPolicy<any> | FieldReadFunction<any>,
	start?: FieldPolicy<any> | FieldReadFunction<any>
};
export type TreatmentChangeKeySpecifier = ('after' | 'before' | 'fieldChanges' | 'fromStrength' | 'kind' | 'method' | 'methodName' | 'methodSlug' | 'model' | 'modelName' | 'modelSlug' | 'removedWithMethod' | 'removedWithModel' | 'toStrength' | TreatmentChangeKeySpecifier)[];
export type TreatmentChangeFieldPolicy = {
	after?: FieldPolicy<any> | FieldReadFunction<any>,
	before?: FieldPolicy<any> | FieldReadFunction<any>,
	fieldChanges?: FieldPolicy<any> | FieldReadFunction<any>,
	fromStrength?: FieldPolicy<any> | FieldReadFunction<any>,
	kind?: FieldPolicy<any> | FieldReadFunction<any>,
	method?: FieldPolicy<any> | FieldReadFunction<any>,
	methodName?: FieldPolicy<any> | FieldReadFunction<any>,
	methodSlug?: FieldPolicy<any> | FieldReadFunction<any>,
	model?: FieldPolicy<any> | FieldReadFunction<any>,
	modelName?: FieldPolicy<any> | FieldReadFunction<any>,
	modelSlug?: FieldPolicy<any> | FieldReadFunction<any>,
	removedWithMethod?: FieldPolicy<any> | FieldReadFunction<any>,
	removedWithModel?: FieldPolicy<any> | FieldReadFunction<any>,
	toStrength?: FieldPolicy<any> | FieldReadFunction<any>
};
export type TreatmentChangeConnectionKeySpecifier = ('edges' | 'nodes' | 'pageInfo' | 'totalCount' | TreatmentChangeConnectionKeySpecifier)[];
export type TreatmentChangeConnectionFieldPolicy = {
	edges?: FieldPolicy<any> | FieldReadFunction<any>,
	nodes?: FieldPolicy<any> | FieldReadFunction<any>,
	pageInfo?: FieldPolicy<any> | FieldReadFunction<any>,
	totalCount?: FieldPolicy<any> | FieldReadFunction<any>
};
export type TreatmentChangeEdgeKeySpecifier = ('cursor' | 'node' | TreatmentChangeEdgeKeySpecifier)[];
export type TreatmentChangeEdgeFieldPolicy = {
	cursor?: FieldPolicy<any> | FieldReadFunction<any>,
	node?: FieldPolicy<any> | FieldReadFunction<any>
};
export type StrictTypedTypePolicies = {
	AdoptionPoint?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | AdoptionPointKeySpecifier | (() => undefined | AdoptionPointKeySpecifier),
		fields?: AdoptionPointFieldPolicy,
	},
	ChangeCounts?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ChangeCountsKeySpecifier | (() => undefined | ChangeCountsKeySpecifier),
		fields?: ChangeCountsFieldPolicy,
	},
	ChangeSummary?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ChangeSummaryKeySpecifier | (() => undefined | ChangeSummaryKeySpecifier),
		fields?: ChangeSummaryFieldPolicy,
	},
	Changes?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ChangesKeySpecifier | (() => undefined | ChangesKeySpecifier),
		fields?: ChangesFieldPolicy,
	},
	Entity?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | EntityKeySpecifier | (() => undefined | EntityKeySpecifier),
		fields?: EntityFieldPolicy,
	},
	Evidence?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | EvidenceKeySpecifier | (() => undefined | EvidenceKeySpecifier),
		fields?: EvidenceFieldPolicy,
	},
	EvidenceConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | EvidenceConnectionKeySpecifier | (() => undefined | EvidenceConnectionKeySpecifier),
		fields?: EvidenceConnectionFieldPolicy,
	},
	EvidenceEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | EvidenceEdgeKeySpecifier | (() => undefined | EvidenceEdgeKeySpecifier),
		fields?: EvidenceEdgeFieldPolicy,
	},
	FieldChange?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | FieldChangeKeySpecifier | (() => undefined | FieldChangeKeySpecifier),
		fields?: FieldChangeFieldPolicy,
	},
	FormerNode?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | FormerNodeKeySpecifier | (() => undefined | FormerNodeKeySpecifier),
		fields?: FormerNodeFieldPolicy,
	},
	FormerRecord?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | FormerRecordKeySpecifier | (() => undefined | FormerRecordKeySpecifier),
		fields?: FormerRecordFieldPolicy,
	},
	KnockOn?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | KnockOnKeySpecifier | (() => undefined | KnockOnKeySpecifier),
		fields?: KnockOnFieldPolicy,
	},
	Method?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | MethodKeySpecifier | (() => undefined | MethodKeySpecifier),
		fields?: MethodFieldPolicy,
	},
	MethodChange?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | MethodChangeKeySpecifier | (() => undefined | MethodChangeKeySpecifier),
		fields?: MethodChangeFieldPolicy,
	},
	MethodChangeConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | MethodChangeConnectionKeySpecifier | (() => undefined | MethodChangeConnectionKeySpecifier),
		fields?: MethodChangeConnectionFieldPolicy,
	},
	MethodChangeEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | MethodChangeEdgeKeySpecifier | (() => undefined | MethodChangeEdgeKeySpecifier),
		fields?: MethodChangeEdgeFieldPolicy,
	},
	MethodConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | MethodConnectionKeySpecifier | (() => undefined | MethodConnectionKeySpecifier),
		fields?: MethodConnectionFieldPolicy,
	},
	MethodEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | MethodEdgeKeySpecifier | (() => undefined | MethodEdgeKeySpecifier),
		fields?: MethodEdgeFieldPolicy,
	},
	MethodTreatment?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | MethodTreatmentKeySpecifier | (() => undefined | MethodTreatmentKeySpecifier),
		fields?: MethodTreatmentFieldPolicy,
	},
	MethodTreatmentConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | MethodTreatmentConnectionKeySpecifier | (() => undefined | MethodTreatmentConnectionKeySpecifier),
		fields?: MethodTreatmentConnectionFieldPolicy,
	},
	MethodTreatmentEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | MethodTreatmentEdgeKeySpecifier | (() => undefined | MethodTreatmentEdgeKeySpecifier),
		fields?: MethodTreatmentEdgeFieldPolicy,
	},
	Model?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ModelKeySpecifier | (() => undefined | ModelKeySpecifier),
		fields?: ModelFieldPolicy,
	},
	ModelChange?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ModelChangeKeySpecifier | (() => undefined | ModelChangeKeySpecifier),
		fields?: ModelChangeFieldPolicy,
	},
	ModelChangeConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ModelChangeConnectionKeySpecifier | (() => undefined | ModelChangeConnectionKeySpecifier),
		fields?: ModelChangeConnectionFieldPolicy,
	},
	ModelChangeEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ModelChangeEdgeKeySpecifier | (() => undefined | ModelChangeEdgeKeySpecifier),
		fields?: ModelChangeEdgeFieldPolicy,
	},
	ModelConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ModelConnectionKeySpecifier | (() => undefined | ModelConnectionKeySpecifier),
		fields?: ModelConnectionFieldPolicy,
	},
	ModelEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ModelEdgeKeySpecifier | (() => undefined | ModelEdgeKeySpecifier),
		fields?: ModelEdgeFieldPolicy,
	},
	ModelTreatment?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ModelTreatmentKeySpecifier | (() => undefined | ModelTreatmentKeySpecifier),
		fields?: ModelTreatmentFieldPolicy,
	},
	ModelTreatmentConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ModelTreatmentConnectionKeySpecifier | (() => undefined | ModelTreatmentConnectionKeySpecifier),
		fields?: ModelTreatmentConnectionFieldPolicy,
	},
	ModelTreatmentEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ModelTreatmentEdgeKeySpecifier | (() => undefined | ModelTreatmentEdgeKeySpecifier),
		fields?: ModelTreatmentEdgeFieldPolicy,
	},
	Node?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | NodeKeySpecifier | (() => undefined | NodeKeySpecifier),
		fields?: NodeFieldPolicy,
	},
	NodeChange?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | NodeChangeKeySpecifier | (() => undefined | NodeChangeKeySpecifier),
		fields?: NodeChangeFieldPolicy,
	},
	NodeChangeConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | NodeChangeConnectionKeySpecifier | (() => undefined | NodeChangeConnectionKeySpecifier),
		fields?: NodeChangeConnectionFieldPolicy,
	},
	NodeChangeEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | NodeChangeEdgeKeySpecifier | (() => undefined | NodeChangeEdgeKeySpecifier),
		fields?: NodeChangeEdgeFieldPolicy,
	},
	NodeConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | NodeConnectionKeySpecifier | (() => undefined | NodeConnectionKeySpecifier),
		fields?: NodeConnectionFieldPolicy,
	},
	NodeCounts?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | NodeCountsKeySpecifier | (() => undefined | NodeCountsKeySpecifier),
		fields?: NodeCountsFieldPolicy,
	},
	NodeEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | NodeEdgeKeySpecifier | (() => undefined | NodeEdgeKeySpecifier),
		fields?: NodeEdgeFieldPolicy,
	},
	Organization?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | OrganizationKeySpecifier | (() => undefined | OrganizationKeySpecifier),
		fields?: OrganizationFieldPolicy,
	},
	PageInfo?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | PageInfoKeySpecifier | (() => undefined | PageInfoKeySpecifier),
		fields?: PageInfoFieldPolicy,
	},
	Query?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | QueryKeySpecifier | (() => undefined | QueryKeySpecifier),
		fields?: QueryFieldPolicy,
	},
	Release?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ReleaseKeySpecifier | (() => undefined | ReleaseKeySpecifier),
		fields?: ReleaseFieldPolicy,
	},
	ReleaseConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ReleaseConnectionKeySpecifier | (() => undefined | ReleaseConnectionKeySpecifier),
		fields?: ReleaseConnectionFieldPolicy,
	},
	ReleaseEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ReleaseEdgeKeySpecifier | (() => undefined | ReleaseEdgeKeySpecifier),
		fields?: ReleaseEdgeFieldPolicy,
	},
	ReleaseTotals?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | ReleaseTotalsKeySpecifier | (() => undefined | ReleaseTotalsKeySpecifier),
		fields?: ReleaseTotalsFieldPolicy,
	},
	SearchConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | SearchConnectionKeySpecifier | (() => undefined | SearchConnectionKeySpecifier),
		fields?: SearchConnectionFieldPolicy,
	},
	SearchFacet?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | SearchFacetKeySpecifier | (() => undefined | SearchFacetKeySpecifier),
		fields?: SearchFacetFieldPolicy,
	},
	SearchHitEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | SearchHitEdgeKeySpecifier | (() => undefined | SearchHitEdgeKeySpecifier),
		fields?: SearchHitEdgeFieldPolicy,
	},
	SearchSnippet?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | SearchSnippetKeySpecifier | (() => undefined | SearchSnippetKeySpecifier),
		fields?: SearchSnippetFieldPolicy,
	},
	Source?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | SourceKeySpecifier | (() => undefined | SourceKeySpecifier),
		fields?: SourceFieldPolicy,
	},
	SourceConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | SourceConnectionKeySpecifier | (() => undefined | SourceConnectionKeySpecifier),
		fields?: SourceConnectionFieldPolicy,
	},
	SourceEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | SourceEdgeKeySpecifier | (() => undefined | SourceEdgeKeySpecifier),
		fields?: SourceEdgeFieldPolicy,
	},
	StrengthCounts?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | StrengthCountsKeySpecifier | (() => undefined | StrengthCountsKeySpecifier),
		fields?: StrengthCountsFieldPolicy,
	},
	TaxonomySummary?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | TaxonomySummaryKeySpecifier | (() => undefined | TaxonomySummaryKeySpecifier),
		fields?: TaxonomySummaryFieldPolicy,
	},
	TextRange?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | TextRangeKeySpecifier | (() => undefined | TextRangeKeySpecifier),
		fields?: TextRangeFieldPolicy,
	},
	TreatmentChange?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | TreatmentChangeKeySpecifier | (() => undefined | TreatmentChangeKeySpecifier),
		fields?: TreatmentChangeFieldPolicy,
	},
	TreatmentChangeConnection?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | TreatmentChangeConnectionKeySpecifier | (() => undefined | TreatmentChangeConnectionKeySpecifier),
		fields?: TreatmentChangeConnectionFieldPolicy,
	},
	TreatmentChangeEdge?: Omit<TypePolicy, "fields" | "keyFields"> & {
		keyFields?: false | TreatmentChangeEdgeKeySpecifier | (() => undefined | TreatmentChangeEdgeKeySpecifier),
		fields?: TreatmentChangeEdgeFieldPolicy,
	}
};
export type TypedTypePolicies = StrictTypedTypePolicies & TypePolicies;
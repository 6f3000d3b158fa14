/**
 * Rules of the peer suite (`../shared/datasets/peer-detection-tests.json`, Panther's public rules
 * with their unit tests) written in Vigil's query language. Each entry names the peer rule whose
 * test events become its tests; the peer's per-event logic is what is translated (Panther's alert
 * thresholds and dedup periods are not part of its unit tests).
 *
 * "The call succeeded" (errorCode and errorMessage absent, null or empty) is written
 * `(not errorCode: * or errorCode = '')`: `col: *` holds for any existing column, and `= ''`
 * only for an empty value. A JSON null would count as a failure here; no peer test has one.
 */
const succeeded = `(not errorCode: * or errorCode = '') (not errorMessage: * or errorMessage = '')`;

export interface PeerRule {
  /** `rule_id` in the peer dataset. */
  readonly peer: string;
  readonly query: string;
}

export const peerRules: readonly PeerRule[] = [
  { peer: 'AWS.CloudTrail.SES.CheckSendQuota', query: 'eventName = "GetSendQuota" not userIdentity.sessionContext.sessionIssuer.userName = "AWSServiceRoleForTrustedAdvisor"' },
  { peer: 'AWS.IAM.CredentialsUpdated', query: `eventName = ("ChangePassword" "CreateAccessKey" "CreateLoginProfile" "CreateUser") ${succeeded}` },
  { peer: 'AWS.CloudTrail.Created', query: `eventName = ("CreateTrail" "UpdateTrail" "StartLogging") ${succeeded}` },
  {
    peer: 'AWS.EC2.SecurityGroupModified',
    query: `eventName = ("AuthorizeSecurityGroupIngress" "AuthorizeSecurityGroupEgress" "RevokeSecurityGroupIngress" "RevokeSecurityGroupEgress" "CreateSecurityGroup" "DeleteSecurityGroup") ${succeeded}`,
  },
  { peer: 'AWS.KMS.CustomerManagedKeyLoss', query: `eventName = ("DisableKey" "ScheduleKeyDeletion") ${succeeded}` },
  { peer: 'AWS.CloudTrail.Stopped', query: `eventName = ("DeleteTrail" "StopLogging") ${succeeded}` },
  { peer: 'AWS.IAM.CreateRole', query: `eventName = "CreateRole" ${succeeded}` },
  { peer: 'AWS.IAM.CreateUser', query: `eventName = "CreateUser" ${succeeded}` },
  { peer: 'AWS.ConfigService.Created', query: `eventName = ("PutDeliveryChannel" "PutConfigurationRecorder" "StartConfigurationRecorder") ${succeeded}` },
  { peer: 'AWS.CloudTrail.EnableRegion', query: 'eventName = "EnableRegion"' },
  { peer: 'AWS.S3.BucketDeleted', query: `eventName = "DeleteBucket*" ${succeeded}` },
  { peer: 'AWS.ConfigService.DisabledDeleted', query: `eventName = ("StopConfigurationRecorder" "DeleteDeliveryChannel") ${succeeded}` },
  { peer: 'AWS.CloudTrail.CodebuildProjectMadePublic', query: 'eventName = "UpdateProjectVisibility" requestParameters.projectVisibility = "PUBLIC_READ"' },
  { peer: 'AWS.EC2.EBS.Encryption.Disabled', query: 'eventSource = "ec2.amazonaws.com" eventName = "DisableEbsEncryptionByDefault"' },
  { peer: 'AWS.S3.DeletePublicAccessBlock', query: `eventSource = "s3.amazonaws.com" eventName = "DeleteBucketPublicAccessBlock" ${succeeded}` },
  // Bare terms ignore letter case: `*trufflehog*` is the peer's lower-cased substring test.
  { peer: 'AWS.STS.GetCallerIdentity.TruffleHog', query: 'eventSource = "sts.amazonaws.com" eventName = "GetCallerIdentity" userAgent = *trufflehog*' },
  { peer: 'AWS.Console.RootLoginFailed', query: 'eventName = "ConsoleLogin" userIdentity.type = "Root" responseElements.ConsoleLogin = "Failure"' },
  { peer: 'AWS.RDS.ActivityStreamStopped', query: `eventSource = "rds.amazonaws.com" eventName = "StopActivityStream" (not errorCode: * or errorCode = '')` },
  { peer: 'AWS.WAF.Disassociation', query: 'eventName = "DisassociateWebACL"' },
  { peer: 'AWS.IAM.AttachAdminUserPolicy', query: `eventName = "AttachUserPolicy" requestParameters.policyArn = "*AdministratorAccess" ${succeeded}` },
  { peer: 'AWS.SecurityHub.Finding.Evasion', query: 'eventSource = "securityhub.amazonaws.com" eventName = ("BatchUpdateFindings" "DeleteInsight" "UpdateFindings" "UpdateInsight")' },
  { peer: 'AWS.EC2.StopInstances', query: `eventName = "StopInstances" ${succeeded}` },
  { peer: 'AWS.STS.GetSessionToken.Misuse', query: `eventSource = "sts.amazonaws.com" eventName = "GetSessionToken" userIdentity.type = "IAMUser" ${succeeded}` },
  { peer: 'Okta.Support.Access', query: 'eventType = ("user.session.impersonation.grant" "user.session.impersonation.initiate")' },
  { peer: 'Github.Repo.Archived', query: 'action = "repo.archived"' },
  { peer: 'Github.Repo.CollaboratorChange', query: 'action = ("repo.add_member" "repo.remove_member")' },
  { peer: 'GitHub.Branch.PolicyOverride', query: 'action = "protected_branch.policy_override"' },
  { peer: 'GitHub.User.RoleUpdated', query: 'action = "org.update_member"' },
  { peer: 'Github.Repo.VisibilityChange', query: 'action = "repo.access"' },
  { peer: 'GitHub.Org.Moderators.Add', query: 'action = "organization_moderators.add_user"' },
  { peer: 'GitHub.User.AccessKeyCreated', query: 'action = "public_key.create"' },
  { peer: 'GitHub.Secret.Scanning.Alert.Created', query: 'action = "secret_scanning_alert.create"' },
  { peer: 'Github.Repo.Created', query: 'action = "repo.create"' },
  { peer: 'GitHub.Branch.ProtectionDisabled', query: 'action = "protected_branch.destroy"' },
  { peer: 'GitHub.Org.Modified', query: 'action = ("org.add_member" "org.remove_member")' },
  { peer: 'Github.Public.Repository.Created', query: 'action = "repo.create" visibility = "public"' },
  { peer: 'Github.Repo.VulnerabilityDismissed', query: 'action = "repository_vulnerability_alert.dismiss"' },
  { peer: 'Github.Organization.App.Integration.Installed', query: 'action = "integration_installation.create"' },
  { peer: 'Github.Repository.Transfer', query: 'action = ("repo.transfer" "repo.transfer_outgoing" "repo.transfer_start")' },
  {
    peer: 'GCP.Workload.Identity.Pool.Created.or.Updated',
    query: 'protoPayload.methodName = ("google.iam.v1.WorkloadIdentityPools.CreateWorkloadIdentityPoolProvider" "google.iam.v1.WorkloadIdentityPools.UpdateWorkloadIdentityPoolProvider")',
  },
  { peer: 'GCP.Inbound.SSO.Profile.Created', query: 'protoPayload.methodName = ("google.admin.AdminService.inboundSsoProfileCreated" "google.admin.AdminService.inboundSsoProfileUpdated")' },
  { peer: 'GCP.Firewall.Rule.Deleted', query: 'protoPayload.methodName = ("*.Firewall.Delete*" "*.compute.firewalls.delete*")' },
  { peer: 'GCP.Tag.Binding.Creation', query: 'protoPayload.methodName = "*TagBindings.CreateTagBinding"' },
  { peer: 'GCP.User.Added.to.IAP.Protected.Service', query: 'protoPayload.methodName = "google.cloud.iap.v1.IdentityAwareProxyAdminService.SetIamPolicy"' },
  { peer: 'GCP.DNS.Zone.Modified.or.Deleted', query: 'protoPayload.methodName = ("dns.changes.create" "dns.managedZones.delete" "dns.managedZones.patch" "dns.managedZones.update")' },
  { peer: 'Slack.AuditLogs.PrivateChannelMadePublic', query: 'action = "private_channel_converted_to_public"' },
  { peer: 'Slack.AuditLogs.PotentiallyMaliciousFileShared', query: 'action = "file_malicious_content_detected"' },
  {
    peer: 'Slack.AuditLogs.LegalHoldPolicyModified',
    query: 'action = ("legal_hold_policy_entities_deleted" "legal_hold_policy_exclusion_added" "legal_hold_policy_released" "legal_hold_policy_updated")',
  },
  { peer: 'Slack.AuditLogs.UserPrivilegeEscalation', query: 'action = ("owner_transferred" "permissions_assigned" "role_change_to_admin" "role_change_to_owner")' },
  { peer: 'Slack.AuditLogs.AppAdded', query: 'action = ("app_approved" "app_installed" "org_app_workspace_added")' },
  { peer: 'Slack.AuditLogs.MFASettingsChanged', query: 'action = "pref.two_factor_auth_changed"' },
  { peer: 'Slack.AuditLogs.SSOSettingsChanged', query: 'action = "pref.sso_setting_changed"' },
  { peer: 'Slack.AuditLogs.IDPConfigurationChanged', query: 'action = ("idp_configuration_added" "idp_configuration_deleted" "idp_prod_configuration_updated")' },
  { peer: 'GSuite.Workspace.DataExportCreated', query: 'name = "CUSTOMER_TAKEOUT_*"' },
  { peer: 'Google.Workspace.Apps.New.Mobile.App.Installed', query: 'name = "ADD_MOBILE_APPLICATION_TO_WHITELIST"' },
  {
    peer: 'GSuite.UserSuspended',
    query: 'id.applicationName = "login" name = ("account_disabled_generic" "account_disabled_spamming_through_relay" "account_disabled_spamming" "account_disabled_hijacked")',
  },
  { peer: 'GSuite.CalendarMadePublic', query: 'name = "change_calendar_acls" parameters.grantee_email = "__public_principal__@public.calendar.google.com"' },
  { peer: 'GSuite.Workspace.TrustedDomainsAllowlist', query: 'type = "DOMAIN_SETTINGS" name = "*_TRUSTED_DOMAINS"' },
];

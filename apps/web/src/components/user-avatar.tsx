import { Avatar, useMantineTheme, type AvatarProps } from '@mantine/core';
import { AVATAR_SIZE_PX, displayName, initials } from '@portal/contract';

export interface UserAvatarProps extends Omit<AvatarProps, 'src' | 'alt' | 'children'> {
  user: { fname: string; lname: string; picture?: string | null };
}

/** The user's picture, or the initials of their name on the accent colour. 40 px by default. */
export function UserAvatar({ user, size = AVATAR_SIZE_PX, ...rest }: UserAvatarProps) {
  const theme = useMantineTheme();
  return (
    <Avatar
      src={user.picture || null}
      alt={displayName(user)}
      size={size}
      radius="xl"
      variant="light"
      color={theme.primaryColor}
      {...rest}
    >
      {initials(user)}
    </Avatar>
  );
}

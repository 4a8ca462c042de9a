import type { AdminUser } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Drawer, Empty, Skeleton, Tag, Tree, type TreeDataNode } from 'antd'
import { useEffect, useState, type Key } from 'react'
import { useTranslation } from 'react-i18next'
import { LoadError } from '../../lib/load-error.tsx'
import { errorText } from '../../lib/request.ts'
import { fetchUserTree, userKeys } from './api/users.ts'

interface Node extends TreeDataNode {
  key: string
  user: AdminUser
  children?: Node[]
}

function toNode(user: AdminUser): Node {
  return { key: user.userName, user, isLeaf: user.directPeople === 0 }
}

function withChildren(nodes: Node[], key: string, children: Node[]): Node[] {
  return nodes.map((n) =>
    n.key === key
      ? { ...n, children, isLeaf: children.length === 0 }
      : n.children
        ? { ...n, children: withChildren(n.children, key, children) }
        : n,
  )
}

/** A user's downline, one level loaded at a time as the operator opens it (`admin/userTree`). */
export function UserTreeDrawer({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation()
  const label = (u: AdminUser) =>
    `${u.userName}${u.nickName ? ` (${u.nickName})` : ''} · ${t('users.tree.people', {
      direct: u.directPeople,
      team: u.teamPeople,
    })}`
  const root = useQuery({
    queryKey: userKeys.tree(user.userName),
    queryFn: ({ signal }) => fetchUserTree(user.userName, signal),
  })
  const [nodes, setNodes] = useState<Node[]>([])
  const [failure, setFailure] = useState<string | null>(null)
  const [expanded, setExpanded] = useState<Key[]>([user.userName])

  useEffect(() => {
    if (!root.data) return
    setNodes([{ ...toNode(root.data.user), children: root.data.children.map(toNode) }])
  }, [root.data])

  const loadData = async (node: Node): Promise<void> => {
    if (node.children) return
    try {
      const tree = await fetchUserTree(node.key)
      setNodes((prev) => withChildren(prev, node.key, tree.children.map(toNode)))
      setFailure(null)
    } catch (error) {
      setFailure(errorText(error, t('common.networkError')))
      throw error
    }
  }

  return (
    <Drawer
      open
      size={560}
      title={t('users.tree.title')}
      onClose={onClose}
      data-testid="admin-user-tree"
    >
      {root.isError ? (
        <LoadError error={root.error} onRetry={() => void root.refetch()} />
      ) : !root.data || nodes.length === 0 ? (
        <Skeleton active />
      ) : nodes[0]?.children?.length === 0 ? (
        <>
          <Tag>{label(root.data.user)}</Tag>
          <Empty description={t('users.tree.empty')} />
        </>
      ) : (
        <>
          {failure && <Tag color="error">{failure}</Tag>}
          <Tree<Node>
            showLine
            treeData={nodes}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys)}
            loadData={loadData}
            titleRender={(node) => label(node.user)}
          />
        </>
      )}
    </Drawer>
  )
}
